import { type Equipment, type RoomCheckResult } from '@cm/contracts';
import { screen, within } from '@testing-library/react';
import { userEvent } from '../../../test/user-event';
import { fakeFetch, renderWithApp } from '../../../test/render';
import { LiveCache } from '../../../lib/live-events';
import { EquipmentSection } from './equipment-section';

const roomId = '00000000-0000-4000-8000-000000000001';
const device = (n: number, name: string, over: Partial<Equipment> = {}): Equipment => ({
  id: `00000000-0000-4000-8000-00000000000${n}`,
  roomId,
  name,
  model: null,
  serialNumber: null,
  ipAddress: `10.0.0.${n}`,
  status: 'active',
  notes: null,
  imageUrl: null,
  type: null,
  upstreamEquipmentId: null,
  version: 1,
  lastCheckedAt: null,
  lastRttMs: null,
  ...over,
});

describe('Check this room now', () => {
  it('checks the room, says what answered, and the cards show when each was checked', async () => {
    const hoursAgo = new Date(Date.now() - 3 * 3_600_000).toISOString();
    const projector = device(1, 'Projector', { lastCheckedAt: hoursAgo });
    const display = device(2, 'Display', { lastCheckedAt: hoursAgo });
    const now = new Date().toISOString();
    const result: RoomCheckResult = {
      roomId,
      checkedAt: now,
      durationMs: 420,
      recorded: true,
      equipment: [
        { equipmentId: projector.id, status: 'active', rttMs: 0.4, probe: null },
        { equipmentId: display.id, status: 'inactive', rttMs: null, probe: null },
      ],
      message: 'Checked 2 equipment: 1 answered',
    };
    const calls = fakeFetch(
      { status: 200, body: [projector, display] },
      { status: 200, body: result },
      {
        status: 200,
        body: [
          { ...projector, lastCheckedAt: now },
          { ...display, status: 'inactive', lastCheckedAt: now },
        ],
      },
    );
    renderWithApp(<EquipmentSection roomId={roomId} />);
    const cards = await screen.findAllByTestId('equipment-card');
    expect(within(cards[0]!).getByTestId('checked-ago')).toHaveTextContent('Checked 3 h ago');

    await userEvent.click(screen.getByRole('button', { name: 'Check this room now' }));

    expect(await screen.findByRole('status')).toHaveTextContent(
      'Checked 2 equipment: 1 answered. No answer from Display',
    );
    expect(calls[1]).toMatchObject({ url: `/api/rooms/${roomId}/check`, init: { method: 'POST' } });
    const after = await screen.findAllByText(/Checked \d+ s ago/);
    expect(after).toHaveLength(2);
    expect(within(screen.getAllByTestId('equipment-card')[1]!).getByText('Inactive')).toBeInTheDocument();
  });

  it('says "Checking..." on a card whose device had not answered, until its result comes live', async () => {
    const hoursAgo = new Date(Date.now() - 3 * 3_600_000).toISOString();
    const projector = device(1, 'Projector', { lastCheckedAt: hoursAgo });
    const display = device(2, 'Display', { lastCheckedAt: hoursAgo });
    const now = new Date().toISOString();
    const checked = { ...display, lastCheckedAt: now };
    const result: RoomCheckResult = {
      roomId,
      checkId: 'check-1',
      checkedAt: now,
      durationMs: 1700,
      recorded: true,
      equipment: [
        { equipmentId: projector.id, status: null, rttMs: null, probe: null, pending: true },
        { equipmentId: display.id, status: 'active', rttMs: 0.4, probe: null },
      ],
      message: 'Checked 2 equipment: 1 answered, 1 still being checked',
    };
    fakeFetch(
      { status: 200, body: [projector, display] },
      { status: 200, body: result },
      { status: 200, body: [projector, checked] },
      { status: 200, body: [{ ...projector, lastCheckedAt: now }, checked] },
    );
    const { queryClient } = renderWithApp(<EquipmentSection roomId={roomId} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Check this room now' }));

    expect(await screen.findByRole('status')).toHaveTextContent(
      'Checked 2 equipment: 1 answered, 1 still being checked',
    );
    const card = () => screen.getAllByTestId('equipment-card')[0]!;
    expect(within(card()).getByTestId('checked-ago')).toHaveTextContent('Checking...');

    const live = new LiveCache(queryClient);
    const late = { equipmentId: projector.id, status: 'active', rttMs: 0.5, probe: null };
    live.apply(
      'room.checked',
      JSON.stringify({ roomId, checkId: 'check-1', equipment: [late], recorded: true }),
    );

    expect(await screen.findByRole('status')).toHaveTextContent('Checked 2 equipment: 2 answered');
    expect(await within(card()).findByText(/^Checked \d+ s ago$/)).toBeInTheDocument();
    live.dispose();
  });

  it('reads the recorded result for a card still "Checking..." when the live stream missed its event', async () => {
    const hoursAgo = new Date(Date.now() - 3 * 3_600_000).toISOString();
    const projector = device(1, 'Projector', { lastCheckedAt: hoursAgo });
    const now = new Date().toISOString();
    const result: RoomCheckResult = {
      roomId,
      checkId: 'check-2',
      checkedAt: now,
      durationMs: 1700,
      recorded: true,
      equipment: [{ equipmentId: projector.id, status: null, rttMs: null, probe: null, pending: true }],
      message: 'Checked 1 equipment: 0 answered, 1 still being checked',
    };
    const recorded = { ...projector, lastCheckedAt: now, lastRttMs: 0.6 };
    fakeFetch(
      { status: 200, body: [projector] },
      { status: 200, body: result },
      { status: 200, body: [projector] },
      { status: 200, body: [recorded] },
      { status: 200, body: [recorded] },
    );
    const { queryClient } = renderWithApp(<EquipmentSection roomId={roomId} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Check this room now' }));
    const card = () => screen.getAllByTestId('equipment-card')[0]!;
    expect(await within(card()).findByText('Checking...')).toBeInTheDocument();

    // The stream comes back after a gap: what it missed is read again, the room check with it.
    const live = new LiveCache(queryClient);
    live.refetchAll();

    expect(await within(card()).findByText(/^Checked \d+ s ago$/)).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Checked 1 equipment: 1 answered');
    live.dispose();
  });

  it('says the check failed, with the reason', async () => {
    fakeFetch(
      { status: 200, body: [device(1, 'Projector')] },
      { status: 503, body: { code: 'COMMON.SERVICE_UNAVAILABLE', message: 'The monitor is not running' } },
      { status: 200, body: [device(1, 'Projector')] },
    );
    renderWithApp(<EquipmentSection roomId={roomId} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Check this room now' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      /Failed to check this room: .*monitor is not running/,
    );
  });
});
