import { messages, type StatusCounts } from '@cm/contracts';
import { inventoryUnderTest, sql } from './support';

const counts = (over: Partial<StatusCounts> = {}): StatusCounts => ({
  active: 0,
  inactive: 0,
  partial: 0,
  maintenance: 0,
  ...over,
});

describe('inventory health roll-up and what is down now', () => {
  const inventory = inventoryUnderTest();
  const { make, send } = inventory;

  beforeEach(() => sql(inventory.sut, 'DELETE FROM inv.buildings'));

  /** When the equipment's current status began, as the status history would have it. */
  const downSince = (equipmentId: string, at: string) =>
    sql(inventory.sut, 'UPDATE inv.equipment_state SET status_at = $2 WHERE equipment_id = $1', [
      equipmentId,
      at,
    ]);

  const roomCounts = async (buildingId: string) =>
    Object.fromEntries(
      (await send(messages.inventory.listRooms, { buildingId })).map((r) => [r.name, r.statusCounts]),
    );
  const buildingCounts = async () =>
    Object.fromEntries(
      (await send(messages.inventory.listBuildings, {})).map((b) => [b.name, b.statusCounts]),
    );

  it('counts each room and building equipment by status, and follows a status change', async () => {
    const hall = await make.building({ name: 'Hall' });
    const lab = await make.room(hall.id, { name: 'Lab' });
    const quiet = await make.room(hall.id, { name: 'Quiet' });
    await make.equipment(lab.id, { name: 'Projector', status: 'active' });
    const screen = await make.equipment(lab.id, { name: 'Screen', status: 'inactive' });
    await make.equipment(lab.id, { name: 'Switch', status: 'partial' });
    await make.equipment(quiet.id, { name: 'Speaker', status: 'maintenance' });
    await make.building({ name: 'Empty' });

    expect(await roomCounts(hall.id)).toEqual({
      Lab: counts({ active: 1, inactive: 1, partial: 1 }),
      Quiet: counts({ maintenance: 1 }),
    });
    expect(await buildingCounts()).toEqual({
      Empty: counts(),
      Hall: counts({ active: 1, inactive: 1, partial: 1, maintenance: 1 }),
    });

    await send(messages.inventory.updateEquipment, {
      id: screen.id,
      changes: { name: 'Screen', status: 'active' },
    });
    expect((await roomCounts(hall.id)).Lab).toEqual(counts({ active: 2, partial: 1 }));
  });

  it('counts a device under a maintenance window now as in maintenance, and leaves it out of what needs attention', async () => {
    const HOUR = 3_600_000;
    const window = (target: { equipmentId?: string; roomId?: string }, fromHours = -1, toHours = 1) =>
      send(messages.inventory.createMaintenanceWindow, {
        ...target,
        startsAt: new Date(Date.now() + fromHours * HOUR).toISOString(),
        endsAt: new Date(Date.now() + toHours * HOUR).toISOString(),
        reason: 'Lamp replacement',
      });
    const hall = await make.building({ name: 'Hall' });
    const lab = await make.room(hall.id, { name: 'Lab' });
    const closed = await make.room(hall.id, { name: 'Closed' });
    const projector = await make.equipment(lab.id, { name: 'Projector', status: 'inactive' });
    await make.equipment(lab.id, { name: 'Screen', status: 'inactive' });
    await make.equipment(closed.id, { name: 'Speaker', status: 'partial' });
    await make.equipment(closed.id, { name: 'Amp', status: 'active' });
    await window({ equipmentId: projector.id });
    await window({ roomId: closed.id });
    // Over, or not begun: no effect.
    await window({ roomId: lab.id }, -3, -2);
    await window({ roomId: lab.id }, 2, 3);

    expect(await roomCounts(hall.id)).toEqual({
      Closed: counts({ maintenance: 2 }),
      Lab: counts({ inactive: 1, maintenance: 1 }),
    });
    expect((await buildingCounts()).Hall).toEqual(counts({ inactive: 1, maintenance: 3 }));
    const problems = await send(messages.inventory.listProblems, {});
    expect(problems).toMatchObject({ deviceCount: 1, roomCount: 1 });
    expect(problems.buildings[0].rooms[0].devices.map((d) => d.name)).toEqual(['Screen']);
  });

  it('leaves deleted rooms and buildings out of the counts and the problems', async () => {
    const hall = await make.building({ name: 'Hall' });
    const gone = await make.room(hall.id, { name: 'Gone' });
    const kept = await make.room(hall.id, { name: 'Kept' });
    await make.equipment(gone.id, { status: 'inactive' });
    await make.equipment(gone.id, { status: 'partial' });
    await make.equipment(kept.id, { status: 'inactive' });
    const annex = await make.building({ name: 'Annex' });
    const annexRoom = await make.room(annex.id);
    await make.equipment(annexRoom.id, { status: 'inactive' });
    expect((await send(messages.inventory.listProblems, {})).deviceCount).toBe(4);

    await send(messages.inventory.deleteRoom, { id: gone.id });
    expect(await roomCounts(hall.id)).toEqual({ Kept: counts({ inactive: 1 }) });
    expect((await buildingCounts()).Hall).toEqual(counts({ inactive: 1 }));

    await send(messages.inventory.deleteBuilding, { id: annex.id });
    expect(await buildingCounts()).toEqual({ Hall: counts({ inactive: 1 }) });
    const problems = await send(messages.inventory.listProblems, {});
    expect(problems).toMatchObject({ deviceCount: 1, roomCount: 1, buildings: [{ name: 'Hall' }] });
  });

  it('lists inactive and partial equipment by building and room, longest down first', async () => {
    const north = await make.building({ name: 'North' });
    const south = await make.building({ name: 'South' });
    const n1 = await make.room(north.id, { name: 'N1', floor: '1' });
    const n2 = await make.room(north.id, { name: 'N2', floor: '2' });
    const s1 = await make.room(south.id, { name: 'S1', floor: 'G' });
    const projector = await make.equipment(n1.id, {
      name: 'Projector',
      status: 'inactive',
      ipAddress: '10.0.0.1',
    });
    const display = await make.equipment(n2.id, {
      name: 'Display',
      status: 'partial',
      ipAddress: '10.0.0.2',
    });
    const speaker = await make.equipment(s1.id, { name: 'Speaker', status: 'inactive' });
    const mic = await make.equipment(n1.id, { name: 'Mic', status: 'inactive', ipAddress: '10.0.0.4' });
    await make.equipment(n1.id, { name: 'Fine', status: 'active', ipAddress: '10.0.0.5' });
    await make.equipment(s1.id, { name: 'Serviced', status: 'maintenance' });
    await downSince(speaker.id, '2026-01-01T08:00:00Z');
    await downSince(projector.id, '2026-01-02T08:00:00Z');
    await downSince(display.id, '2026-01-03T08:00:00Z');
    await downSince(mic.id, '2026-01-04T08:00:00Z');

    const problems = await send(messages.inventory.listProblems, {});
    expect(problems).toEqual({
      deviceCount: 4,
      roomCount: 3,
      faults: { deviceCount: 0, buildings: [] },
      buildings: [
        {
          id: south.id,
          name: 'South',
          rooms: [
            {
              id: s1.id,
              name: 'S1',
              floor: 'G',
              devices: [
                {
                  id: speaker.id,
                  name: 'Speaker',
                  status: 'inactive',
                  ipAddress: null,
                  since: '2026-01-01T08:00:00.000Z',
                },
              ],
            },
          ],
        },
        {
          id: north.id,
          name: 'North',
          rooms: [
            {
              id: n1.id,
              name: 'N1',
              floor: '1',
              devices: [
                {
                  id: projector.id,
                  name: 'Projector',
                  status: 'inactive',
                  ipAddress: '10.0.0.1',
                  since: '2026-01-02T08:00:00.000Z',
                },
                {
                  id: mic.id,
                  name: 'Mic',
                  status: 'inactive',
                  ipAddress: '10.0.0.4',
                  since: '2026-01-04T08:00:00.000Z',
                },
              ],
            },
            {
              id: n2.id,
              name: 'N2',
              floor: '2',
              devices: [
                {
                  id: display.id,
                  name: 'Display',
                  status: 'partial',
                  ipAddress: '10.0.0.2',
                  since: '2026-01-03T08:00:00.000Z',
                },
              ],
            },
          ],
        },
      ],
    });
  });

  it('dates a device from the change that put it down, and drops it once it is back', async () => {
    const hall = await make.building();
    const room = await make.room(hall.id);
    const device = await make.equipment(room.id, { status: 'active' });
    await downSince(device.id, '2026-01-01T08:00:00Z');
    const before = Date.now();
    await send(messages.inventory.updateEquipment, {
      id: device.id,
      changes: { name: 'Projector', status: 'inactive' },
    });
    const [listed] = (await send(messages.inventory.listProblems, {})).buildings[0].rooms[0].devices;
    expect(Date.parse(listed.since)).toBeGreaterThanOrEqual(before - 1000);

    await send(messages.inventory.updateEquipment, {
      id: device.id,
      changes: { name: 'Projector', status: 'active' },
    });
    await expect(send(messages.inventory.listProblems, {})).resolves.toEqual({
      deviceCount: 0,
      roomCount: 0,
      buildings: [],
      faults: { deviceCount: 0, buildings: [] },
    });
  });
});
