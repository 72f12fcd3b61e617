import { type Problems } from '@cm/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '../../test/user-event';
import { fakeFetch, renderWithApp } from '../../test/render';
import { ProblemsBanner, problemsQuery } from './problems-banner';

const device = (id: string, name: string, status: 'inactive' | 'partial', ipAddress: string | null) => ({
  id: `00000000-0000-4000-8000-00000000000${id}`,
  name,
  status,
  ipAddress,
  since: new Date(Date.now() - 2 * 3_600_000 - 5 * 60_000).toISOString(),
});

const problems: Problems = {
  deviceCount: 2,
  roomCount: 1,
  buildings: [
    {
      id: '00000000-0000-4000-8000-000000000001',
      name: 'Science Hall',
      rooms: [
        {
          id: '00000000-0000-4000-8000-000000000002',
          name: 'S101',
          floor: '1',
          devices: [device('3', 'Projector', 'inactive', '10.0.0.7'), device('4', 'Switch', 'partial', null)],
        },
      ],
    },
  ],
};

const fault = (
  id: string,
  name: string,
  state: 'warning' | 'error',
  ipAddress: string | null,
  ...reasons: string[]
) => {
  const { status: _status, ...rest } = device(id, name, 'partial', ipAddress);
  return { ...rest, state, reasons };
};

const faults: Problems['faults'] = {
  deviceCount: 2,
  buildings: [
    {
      id: '00000000-0000-4000-8000-000000000001',
      name: 'Science Hall',
      rooms: [
        {
          id: '00000000-0000-4000-8000-000000000006',
          name: 'Lab 2',
          floor: '2',
          devices: [
            fault(
              '7',
              'Projector',
              'warning',
              '10.0.0.9',
              'Lamp 1 at 2,950 of 3,000 hours',
              'Filter warning',
            ),
            fault('8', 'Display', 'error', null, 'PJLink refused the password'),
          ],
        },
      ],
    },
  ],
};

describe(ProblemsBanner.name, () => {
  it('shows nothing when nothing is down', async () => {
    fakeFetch({ status: 200, body: { deviceCount: 0, roomCount: 0, buildings: [] } });
    const { queryClient } = renderWithApp(<ProblemsBanner />);
    await waitFor(() => expect(queryClient.getQueryState(problemsQuery.queryKey)?.status).toBe('success'));
    expect(screen.queryByRole('button', { name: /attention/ })).not.toBeInTheDocument();
  });

  it('says how much is down and opens the list by building and room, each room a link', async () => {
    fakeFetch({ status: 200, body: problems });
    renderWithApp(<ProblemsBanner />);
    await userEvent.click(await screen.findByRole('button', { name: '2 devices need attention in 1 room' }));
    const dialog = await screen.findByRole('dialog', { name: 'Needs attention' });
    expect(dialog).toHaveTextContent('Science Hall');
    expect(screen.getByRole('link', { name: /S101 · Floor 1/ })).toHaveAttribute(
      'href',
      '/rooms/00000000-0000-4000-8000-000000000002',
    );
    const [projector, switchDevice] = screen.getAllByTestId('problem-device');
    expect(projector).toHaveTextContent(/Projector\s*Inactive\s*10\.0\.0\.7\s*for 2 h 5 min/);
    expect(switchDevice).toHaveTextContent(/Switch\s*Partial\s*No address/);
    expect(screen.queryByRole('heading', { name: 'Faults' })).not.toBeInTheDocument();
  });

  it('counts faults apart and lists them after the offline, with state, reasons and how long', async () => {
    fakeFetch({ status: 200, body: { ...problems, faults } });
    renderWithApp(<ProblemsBanner />);
    await userEvent.click(
      await screen.findByRole('button', { name: '4 devices need attention in 2 rooms · 2 faults' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Needs attention' });
    expect(within(dialog).getAllByTestId('problem-device')).toHaveLength(2);
    const section = within(dialog).getByRole('region', { name: 'Faults' });
    expect(within(section).getByRole('link', { name: /Lab 2 · Floor 2/ })).toHaveAttribute(
      'href',
      '/rooms/00000000-0000-4000-8000-000000000006',
    );
    const [lamp, password] = within(section).getAllByTestId('fault-device');
    expect(within(lamp!).getByTestId('health-badge')).toHaveTextContent('Warning');
    expect(
      within(lamp!)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Lamp 1 at 2,950 of 3,000 hours', 'Filter warning']);
    expect(lamp).toHaveTextContent(/10\.0\.0\.9\s*for 2 h 5 min/);
    expect(within(password!).getByTestId('health-badge')).toHaveTextContent('Error');
    expect(password).toHaveTextContent('PJLink refused the password');
  });

  it('shows the banner for faults alone, when nothing is offline', async () => {
    fakeFetch({ status: 200, body: { deviceCount: 0, roomCount: 0, buildings: [], faults } });
    renderWithApp(<ProblemsBanner />);
    await userEvent.click(
      await screen.findByRole('button', { name: '2 devices need attention in 1 room · 2 faults' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Needs attention' });
    expect(within(dialog).queryByTestId('problem-list')).not.toBeInTheDocument();
    expect(within(dialog).getAllByTestId('fault-device')).toHaveLength(2);
  });
});
