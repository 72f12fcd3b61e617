import { ErrorCode, messages, type Room } from '@cm/contracts';
import { randomUUID } from 'node:crypto';
import { SCHEDULE_CLOCK } from '../src/schedules/schedule-clock';
import { failureOf, inventoryUnderTest } from './support';
import { HeldClock, timetables } from './support/timetable';

/** The rooms list's "Next class …" lines: every room's classes of a building in one answer. */
describe("a building's rooms' classes", () => {
  const inventory = inventoryUnderTest({ SCHEDULE_TIME_ZONE: 'UTC', SCHEDULE_POLL_TICK_MS: '3600000' });
  const { make, send } = inventory;
  const timetable = timetables(inventory);
  beforeAll(() => new HeldClock('2026-03-02T09:30:00Z').hold(inventory.sut, [SCHEDULE_CLOCK]));

  it("answers each room's classes in the range, its first few only, and none of another building's", async () => {
    const hall = await make.building({ name: 'Science Hall' });
    const other = await make.building({ name: 'Library' });
    const r204 = await make.room(hall.id, { name: '204' });
    const r205 = await make.room(hall.id, { name: '205' });
    await make.room(hall.id, { name: '206' });
    const elsewhere = await make.room(other.id, { name: '1' });
    await timetable(r204, '204,PHYS 101,2026-03-02,09:00,10:15', '204,PHYS 102,2026-03-02,13:00,14:00');
    // Twelve classes: a card needs the first few, not a fortnight's.
    await timetable(
      r205,
      ...Array.from(
        { length: 12 },
        (_, i) => `205,ECON ${100 + i},2026-03-${String(2 + i).padStart(2, '0')},11:00,12:00`,
      ),
    );
    await timetable(elsewhere, '1,HIST 100,2026-03-02,10:00,11:00');

    const classes = await send(messages.inventory.buildingClasses, {
      buildingId: hall.id,
      to: '2026-03-20T00:00:00.000Z',
    });
    const of = (room: Room) =>
      classes.filter((c) => c.roomId === room.id).map((c) => `${c.title} ${c.start}`);
    // From now (09:30): the class in progress counts, as "In use until 10:15".
    expect(of(r204)).toEqual(['PHYS 101 2026-03-02T09:00:00.000Z', 'PHYS 102 2026-03-02T13:00:00.000Z']);
    expect(of(r205)).toHaveLength(8);
    expect(of(r205)[0]).toBe('ECON 100 2026-03-02T11:00:00.000Z');
    expect(classes.every((c) => c.roomId === r204.id || c.roomId === r205.id)).toBe(true);

    // The default range is the next day.
    const today = await send(messages.inventory.buildingClasses, { buildingId: hall.id });
    expect(today.map((c) => c.title)).toEqual(expect.arrayContaining(['PHYS 101', 'PHYS 102', 'ECON 100']));
    expect(today).toHaveLength(3);

    const missing = randomUUID();
    expect(await failureOf(send(messages.inventory.buildingClasses, { buildingId: missing }))).toMatchObject({
      code: ErrorCode.BUILDING_NOT_FOUND,
    });
  });
});
