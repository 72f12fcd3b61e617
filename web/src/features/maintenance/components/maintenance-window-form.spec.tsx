import { type MaintenanceWindow } from '@cm/contracts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { userEvent } from '../../../test/user-event';
import { fakeFetch, renderWithApp } from '../../../test/render';
import { MaintenanceWindowForm } from './maintenance-window-form';

const targets = {
  roomId: '00000000-0000-4000-8000-000000000001',
  buildingId: '00000000-0000-4000-8000-000000000002',
  equipment: [{ id: '00000000-0000-4000-8000-000000000003', name: 'Projector' }],
};

const saved: MaintenanceWindow = {
  id: '00000000-0000-4000-8000-000000000009',
  buildingId: null,
  roomId: targets.roomId,
  equipmentId: null,
  targetName: '204',
  startsAt: '2026-12-01T08:00:00.000Z',
  endsAt: '2026-12-01T10:00:00.000Z',
  reason: 'Lamp',
};

const local = (iso: string) => {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};

describe(MaintenanceWindowForm.name, () => {
  it('plans a window for the room from now for two hours, with the reason typed', async () => {
    const calls = fakeFetch({ status: 201, body: saved });
    const onDone = jest.fn();
    renderWithApp(<MaintenanceWindowForm targets={targets} onDone={onDone} />);
    expect(screen.getByLabelText('For')).toHaveTextContent('This room');
    await userEvent.type(screen.getByLabelText('Reason *'), 'Lamp');
    await userEvent.click(screen.getByRole('button', { name: 'Add Window' }));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(await screen.findByText('Maintenance window added')).toBeInTheDocument();

    expect(calls[0]).toMatchObject({ url: '/api/maintenance-windows', init: { method: 'POST' } });
    const body = JSON.parse(String(calls[0].init?.body)) as Record<string, string>;
    expect(body).toEqual({
      roomId: targets.roomId,
      startsAt: expect.any(String),
      endsAt: expect.any(String),
      reason: 'Lamp',
    });
    expect(Date.parse(body.endsAt) - Date.parse(body.startsAt)).toBe(2 * 3_600_000);
    expect(Math.abs(Date.parse(body.startsAt) - Date.now())).toBeLessThan(2 * 60_000);
  });

  it('says what is wrong with an end before the start or no reason, and sends nothing', async () => {
    const calls = fakeFetch();
    renderWithApp(<MaintenanceWindowForm targets={targets} onDone={() => {}} />);
    fireEvent.change(screen.getByLabelText('Starts *'), { target: { value: local('2026-12-01T10:00:00Z') } });
    fireEvent.change(screen.getByLabelText('Ends *'), { target: { value: local('2026-12-01T09:00:00Z') } });
    await userEvent.click(screen.getByRole('button', { name: 'Add Window' }));
    expect(await screen.findByText('The end must be later than the start')).toBeInTheDocument();
    expect(screen.getByText('Reason is required')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Starts *'), { target: { value: '' } });
    await userEvent.click(screen.getByRole('button', { name: 'Add Window' }));
    expect(await screen.findByText('Choose when it starts')).toBeInTheDocument();
    expect(calls).toEqual([]);
  });
});
