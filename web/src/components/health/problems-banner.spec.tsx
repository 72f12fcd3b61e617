import { type Problems } from '@cm/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
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
  });
});
