import { type OpenAlert } from '@cm/contracts';
import { screen, within } from '@testing-library/react';
import { fakeFetch, renderWithApp } from '../../../test/render';
import { RoomAlerts } from './room-alerts';

const roomId = '00000000-0000-4000-8000-000000000001';
const alert: OpenAlert = {
  id: '00000000-0000-4000-8000-000000000009',
  room: { id: roomId, name: '204' },
  building: { id: '00000000-0000-4000-8000-000000000002', name: 'Science Hall' },
  openedAt: '2026-11-24T20:00:00.000Z',
  closedAt: null,
  monitored: 5,
  devices: [
    {
      id: '00000000-0000-4000-8000-000000000003',
      name: 'Display',
      address: '10.1.2.4-6',
      status: 'partial',
      since: '2026-11-24T19:59:00.000Z',
    },
    {
      id: '00000000-0000-4000-8000-000000000004',
      name: 'Projector',
      address: '10.1.2.3',
      status: 'inactive',
      since: '2026-11-24T19:58:30.000Z',
    },
  ],
};
const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

describe(RoomAlerts.name, () => {
  it("shows the room's open alert: how many devices, since when, and each one with its address", async () => {
    const calls = fakeFetch({ status: 200, body: [alert] });
    renderWithApp(<RoomAlerts roomId={roomId} />);
    expect(await screen.findByRole('heading', { name: 'Open alert' })).toBeInTheDocument();
    expect(calls[0].url).toBe(`/api/alerts/open?roomId=${roomId}`);
    expect(screen.getByText(/2 of 5 devices not answering since/)).toHaveTextContent(when(alert.openedAt));
    const devices = within(screen.getByRole('list', { name: 'Devices in the alert' })).getAllByRole(
      'listitem',
    );
    expect(devices.map((d) => d.textContent)).toEqual([
      `Display (10.1.2.4-6)Partial since ${when('2026-11-24T19:59:00.000Z')}`,
      `Projector (10.1.2.3)Inactive since ${when('2026-11-24T19:58:30.000Z')}`,
    ]);
  });

  it('links the incident the alert opened in a service desk', async () => {
    const url = 'https://campus.service-now.com/nav_to.do?uri=incident.do%3Fsys_id%3Dabc';
    const incidents = [
      {
        channelId: '00000000-0000-4000-8000-0000000000c1',
        channelName: 'AV desk',
        number: 'INC0010001',
        url,
        state: 'open' as const,
      },
    ];
    fakeFetch({ status: 200, body: [{ ...alert, incidents }] });
    renderWithApp(<RoomAlerts roomId={roomId} />);
    const link = await screen.findByRole('link', { name: 'INC0010001' });
    expect(link).toHaveAttribute('href', url);
    expect(link.parentElement?.parentElement).toHaveTextContent('Incident: AV desk INC0010001');
  });

  it('shows nothing for a room without an open alert', async () => {
    const calls = fakeFetch({ status: 200, body: [] });
    const { container } = renderWithApp(<RoomAlerts roomId={roomId} />);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls).toHaveLength(1);
    expect(container.querySelector('section')).toBeNull();
  });
});
