import { type ReadinessClass } from '@cm/contracts';
import { screen, within } from '@testing-library/react';
import { userEvent } from '../../../test/user-event';
import { renderWithApp } from '../../../test/render';
import { BeforeClassPage } from './before-class-page';

const lesson = (over: Partial<ReadinessClass>): ReadinessClass => ({
  title: 'PHYS 101',
  startsAt: '2026-03-02T09:00:00.000Z',
  endsAt: '2026-03-02T10:00:00.000Z',
  room: { id: '00000000-0000-4000-8000-000000000101', name: '101' },
  building: { id: '00000000-0000-4000-8000-0000000000b1', name: 'Hall A' },
  state: 'at-risk',
  reasons: ['Display (10.1.2.4) offline'],
  checkedAt: '2026-03-02T08:40:00.000Z',
  ...over,
});

function serve(status: number, body: unknown) {
  global.fetch = jest.fn(async () => {
    const text = JSON.stringify(body);
    return { ok: status < 300, status, statusText: '', text: async () => text };
  }) as unknown as typeof fetch;
}

describe(BeforeClassPage.name, () => {
  it('lists the classes ahead with their room, state and why a room is at risk', async () => {
    serve(200, [
      lesson({}),
      lesson({
        title: 'ECON 101',
        state: 'ready',
        reasons: [],
        room: { id: '00000000-0000-4000-8000-000000000102', name: '102' },
      }),
      lesson({ title: 'CHEM 201', state: 'not-checked', reasons: [], checkedAt: null }),
    ]);
    renderWithApp(<BeforeClassPage />);
    const items = within(await screen.findByRole('list', { name: 'Classes' })).getAllByRole('listitem');
    expect(items[0]).toHaveTextContent('PHYS 101');
    expect(items[0]).toHaveTextContent('At risk');
    expect(items[0]).toHaveTextContent('Display (10.1.2.4) offline');
    expect(within(items[0]).getByRole('link', { name: '101, Hall A' })).toHaveAttribute(
      'href',
      '/rooms/00000000-0000-4000-8000-000000000101',
    );
    expect(screen.getByText('Ready')).toBeInTheDocument();
    expect(screen.getByText('Not checked')).toBeInTheDocument();
  });

  it('says when there are no classes, and when they could not be loaded', async () => {
    serve(200, []);
    const { unmount } = renderWithApp(<BeforeClassPage />);
    expect(await screen.findByText('No classes in the next hours')).toBeInTheDocument();
    unmount();
    serve(500, { code: 'COMMON.INTERNAL', message: 'Something went wrong' });
    renderWithApp(<BeforeClassPage />);
    expect(await screen.findByText(/Could not load the classes/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it("lets an administrator choose the morning summary's time and channels, and shows it to nobody else", async () => {
    const channel = (id: string, name: string) => ({
      id,
      name,
      type: 'webhook',
      host: 'hooks.example.edu',
      recipients: null,
      enabled: true,
      buildingIds: null,
      createdAt: '2026-03-01T08:00:00.000Z',
      updatedAt: '2026-03-01T08:00:00.000Z',
    });
    const av = channel('00000000-0000-4000-8000-0000000000c1', 'AV team');
    const desk = channel('00000000-0000-4000-8000-0000000000c2', 'Help desk');
    const sent: { url: string; body: unknown }[] = [];
    global.fetch = jest.fn(async (url: string, init?: RequestInit) => {
      if (init?.method === 'PUT') sent.push({ url, body: JSON.parse(String(init.body)) });
      const body = url.startsWith('/api/readiness/summary')
        ? init?.method === 'PUT'
          ? JSON.parse(String(init.body))
          : { time: null, timeZone: 'America/New_York', channelIds: [] }
        : url.startsWith('/api/notification-channels')
          ? [av, desk]
          : [];
      const text = JSON.stringify(body);
      return { ok: true, status: 200, statusText: '', text: async () => text };
    }) as unknown as typeof fetch;
    const { unmount } = renderWithApp(<BeforeClassPage />);
    expect(await screen.findByText('No classes in the next hours')).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Morning summary' })).not.toBeInTheDocument();
    unmount();

    renderWithApp(<BeforeClassPage isAdmin />);
    const form = await screen.findByRole('form', { name: 'Morning summary' });
    await userEvent.type(within(form).getByLabelText(/^Time$/), '07:30');
    await userEvent.click(within(form).getByLabelText('AV team'));
    await userEvent.click(within(form).getByRole('button', { name: 'Save morning summary' }));
    expect(await screen.findByText('Each day at 07:30 (America/New_York).')).toBeInTheDocument();
    expect(sent).toEqual([
      {
        url: '/api/readiness/summary',
        body: { time: '07:30', timeZone: 'America/New_York', channelIds: [av.id] },
      },
    ]);
  });
});
