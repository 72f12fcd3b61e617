import { randomUUID } from 'node:crypto';
import {
  type Building,
  type Equipment,
  ErrorCode,
  type MaintenanceWindow,
  type MessageRequest,
  messages,
  type Room,
} from '@cm/contracts';
import { MaintenanceWindowsService } from '../src/status/maintenance/maintenance-windows.service';
import { failureOf, inventoryUnderTest, setHistory, sql } from './support';

const HOUR = 3_600_000;

type WindowCreate = MessageRequest<typeof messages.inventory.createMaintenanceWindow>;

describe('inventory maintenance windows', () => {
  const inventory = inventoryUnderTest();
  const { make, send } = inventory;
  const hoursFromNow = (h: number) => new Date(Date.now() + h * HOUR).toISOString();
  const plan = (window: Partial<WindowCreate>) =>
    send(messages.inventory.createMaintenanceWindow, {
      startsAt: hoursFromNow(-1),
      endsAt: hoursFromNow(1),
      reason: 'Projector lamp replacement',
      ...window,
    });
  const list = (query: MessageRequest<typeof messages.inventory.listMaintenanceWindows>) =>
    send(messages.inventory.listMaintenanceWindows, query);
  const ids = (windows: MaintenanceWindow[]) => windows.map((w) => w.id).sort();
  const idsOf = (...windows: MaintenanceWindow[]) => ids(windows);

  let hall: Building, annex: Building;
  let lab: Room, office: Room;
  let projector: Equipment, screen: Equipment, printer: Equipment;

  beforeEach(async () => {
    await sql(inventory.sut, 'DELETE FROM inv.buildings');
    hall = await make.building({ name: 'Science Hall' });
    annex = await make.building({ name: 'Annex' });
    lab = await make.room(hall.id, { name: 'Lab 204' });
    office = await make.room(hall.id, { name: 'Office' });
    projector = await make.equipment(lab.id, { name: 'Projector' });
    screen = await make.equipment(lab.id, { name: 'Screen' });
    printer = await make.equipment(office.id, { name: 'Printer' });
  });

  it("plans a window for a room and answers it with its id and the room's name", async () => {
    const times = { startsAt: '2026-12-01T08:00:00.000Z', endsAt: '2026-12-01T12:00:00.000Z' };
    const window = await plan({ roomId: lab.id, ...times, reason: '  Rewiring the lectern  ' });
    expect(window).toEqual({
      id: expect.any(String),
      buildingId: null,
      roomId: lab.id,
      equipmentId: null,
      targetName: 'Lab 204',
      ...times,
      reason: 'Rewiring the lectern',
    });
    await expect(send(messages.inventory.getMaintenanceWindow, { id: window.id })).resolves.toEqual(window);
    // A time with another offset is the same instant.
    const offset = await plan({ buildingId: hall.id, ...times, startsAt: '2026-12-01T09:00:00+01:00' });
    expect(offset).toMatchObject({ startsAt: '2026-12-01T08:00:00.000Z', targetName: 'Science Hall' });
  });

  const inLab = () => ({ roomId: lab.id });
  it.each<[string, () => Partial<WindowCreate>, string]>([
    ['no target', () => ({}), 'Name exactly one of buildingId, roomId or equipmentId'],
    [
      'two targets',
      () => ({ roomId: lab.id, equipmentId: projector.id }),
      'Name exactly one of buildingId, roomId or equipmentId',
    ],
    [
      'an end before its start',
      () => ({ ...inLab(), endsAt: hoursFromNow(-2) }),
      'The end must be later than the start',
    ],
    [
      'an end at its start',
      () => ({ ...inLab(), startsAt: '2026-12-01T08:00:00Z', endsAt: '2026-12-01T08:00:00Z' }),
      'The end must be later than the start',
    ],
    [
      'more than 90 days',
      () => ({ ...inLab(), startsAt: '2026-01-01T00:00:00Z', endsAt: '2026-04-02T00:00:00Z' }),
      'A maintenance window may last at most 90 days; this one lasts 91',
    ],
    [
      'a start that is no time',
      () => ({ ...inLab(), startsAt: 'tomorrow' }),
      'startsAt must be an ISO 8601 date and time',
    ],
    [
      'a time without its offset',
      () => ({ ...inLab(), startsAt: '2026-12-01T08:00:00' }),
      'startsAt must be an ISO 8601 date and time',
    ],
    ['no reason', () => ({ ...inLab(), reason: '   ' }), 'Reason is required'],
    [
      'a reason too long',
      () => ({ ...inLab(), reason: 'x'.repeat(501) }),
      'Reason must be at most 500 characters',
    ],
  ])('refuses a window with %s, saying so', async (_, window, message) => {
    const error = await failureOf(plan(window()));
    expect(error).toMatchObject({ code: ErrorCode.VALIDATION_FAILED });
    expect(error.message).toContain(message);
    await expect(list({})).resolves.toEqual([]);
  });

  it('answers the not-found error of the target it names, and MAINTENANCE_WINDOW_NOT_FOUND for an unknown window', async () => {
    for (const [target, code] of [
      [{ buildingId: randomUUID() }, ErrorCode.BUILDING_NOT_FOUND],
      [{ roomId: randomUUID() }, ErrorCode.ROOM_NOT_FOUND],
      [{ equipmentId: randomUUID() }, ErrorCode.EQUIPMENT_NOT_FOUND],
    ] as const) {
      expect(await failureOf(plan(target))).toMatchObject({ code });
      expect(await failureOf(list(target))).toMatchObject({ code });
    }
    const id = randomUUID();
    // One at a time: a refusal that arrived before it was awaited would be an unhandled rejection.
    for (const call of [
      () => send(messages.inventory.getMaintenanceWindow, { id }),
      () => send(messages.inventory.updateMaintenanceWindow, { id, changes: { reason: 'x' } }),
      () => send(messages.inventory.deleteMaintenanceWindow, { id }),
    ]) {
      const error = await failureOf(call());
      expect(error).toMatchObject({ code: ErrorCode.MAINTENANCE_WINDOW_NOT_FOUND });
      expect(error.message).toMatch(/^Maintenance window not found/);
    }
  });

  it('edits only what is sent, moves a window to another target, and checks the times with the stored ones', async () => {
    const window = await plan({
      roomId: lab.id,
      startsAt: '2026-12-01T08:00:00Z',
      endsAt: '2026-12-01T12:00:00Z',
    });
    const update = (changes: MessageRequest<typeof messages.inventory.updateMaintenanceWindow>['changes']) =>
      send(messages.inventory.updateMaintenanceWindow, { id: window.id, changes });

    await expect(update({ endsAt: '2026-12-01T16:00:00Z' })).resolves.toEqual({
      ...window,
      endsAt: '2026-12-01T16:00:00.000Z',
    });
    const moved = await update({ equipmentId: projector.id, reason: 'Only the projector' });
    expect(moved).toMatchObject({
      buildingId: null,
      roomId: null,
      equipmentId: projector.id,
      targetName: 'Projector',
      reason: 'Only the projector',
      startsAt: '2026-12-01T08:00:00.000Z',
    });

    const before = await failureOf(update({ endsAt: '2026-12-01T07:00:00Z' }));
    expect(before).toMatchObject({
      code: ErrorCode.VALIDATION_FAILED,
      message: 'The end must be later than the start',
    });
    expect(before.errors).toEqual([{ path: 'endsAt', message: 'The end must be later than the start' }]);
    const long = await failureOf(update({ endsAt: '2027-03-15T00:00:00Z' }));
    expect(long.message).toContain('at most 90 days');
    expect(await failureOf(update({}))).toMatchObject({ message: 'Send at least one field to change' });
    expect(await failureOf(update({ roomId: lab.id, buildingId: hall.id }))).toMatchObject({
      code: ErrorCode.VALIDATION_FAILED,
    });
    expect(await failureOf(update({ roomId: randomUUID() }))).toMatchObject({
      code: ErrorCode.ROOM_NOT_FOUND,
    });
    await expect(send(messages.inventory.getMaintenanceWindow, { id: window.id })).resolves.toEqual(moved);

    await expect(send(messages.inventory.deleteMaintenanceWindow, { id: window.id })).resolves.toEqual({
      deleted: true,
    });
    expect(await failureOf(send(messages.inventory.getMaintenanceWindow, { id: window.id }))).toMatchObject({
      code: ErrorCode.MAINTENANCE_WINDOW_NOT_FOUND,
    });
  });

  it('lists the windows that concern a place: what holds it, it, and what it holds', async () => {
    const onHall = await plan({ buildingId: hall.id });
    const onAnnex = await plan({ buildingId: annex.id });
    const onLab = await plan({ roomId: lab.id });
    const onOffice = await plan({ roomId: office.id });
    const onProjector = await plan({ equipmentId: projector.id });
    const onScreen = await plan({ equipmentId: screen.id });
    const onPrinter = await plan({ equipmentId: printer.id });

    expect(ids(await list({ roomId: lab.id }))).toEqual(idsOf(onHall, onLab, onProjector, onScreen));
    expect(ids(await list({ equipmentId: projector.id }))).toEqual(idsOf(onHall, onLab, onProjector));
    expect(ids(await list({ buildingId: hall.id }))).toEqual(
      idsOf(onHall, onLab, onOffice, onProjector, onScreen, onPrinter),
    );
    expect(ids(await list({ buildingId: annex.id }))).toEqual(idsOf(onAnnex));
    expect(await list({})).toHaveLength(7);
  });

  it('lists the windows in force now, the others, and those that overlap a time, by start', async () => {
    const past = await plan({ roomId: lab.id, startsAt: hoursFromNow(-10), endsAt: hoursFromNow(-8) });
    const now = await plan({ roomId: lab.id, startsAt: hoursFromNow(-1), endsAt: hoursFromNow(1) });
    const soon = await plan({ roomId: lab.id, startsAt: hoursFromNow(2), endsAt: hoursFromNow(3) });
    const later = await plan({ roomId: lab.id, startsAt: hoursFromNow(30), endsAt: hoursFromNow(40) });

    expect(await list({ active: 'true' })).toEqual([now]);
    expect(await list({ roomId: lab.id, active: 'false' })).toEqual([past, soon, later]);
    // Those that end after a time: in force and to come, for the room's screen.
    expect(await list({ roomId: lab.id, from: hoursFromNow(0) })).toEqual([now, soon, later]);
    expect(await list({ from: hoursFromNow(-9), to: hoursFromNow(2.5) })).toEqual([past, now, soon]);
    expect(await failureOf(list({ from: hoursFromNow(1), to: hoursFromNow(0) }))).toMatchObject({
      code: ErrorCode.VALIDATION_FAILED,
      message: 'to must be later than from',
    });
  });

  it('deletes the windows of a place with the place', async () => {
    const onHall = await plan({ buildingId: hall.id });
    const onLab = await plan({ roomId: lab.id });
    await plan({ equipmentId: projector.id });
    const onPrinter = await plan({ equipmentId: printer.id });
    const onAnnex = await plan({ buildingId: annex.id });

    await send(messages.inventory.deleteEquipment, { id: projector.id });
    expect(ids(await list({}))).toEqual(idsOf(onHall, onLab, onPrinter, onAnnex));
    await send(messages.inventory.deleteRoom, { id: lab.id });
    expect(ids(await list({}))).toEqual(idsOf(onHall, onPrinter, onAnnex));
    await send(messages.inventory.deleteBuilding, { id: hall.id });
    expect(await list({})).toEqual([onAnnex]);
    const [{ count }] = await sql<{ count: number }>(
      inventory.sut,
      'SELECT count(*)::int AS count FROM inv.maintenance_windows',
    );
    expect(count).toBe(1);
  });

  it('leaves the time inside windows out of uptime, in the report and the history alike', async () => {
    const asOf = Date.now() - 60_000;
    const hoursAgo = (h: number) => new Date(asOf - h * HOUR);
    const window = (target: Partial<WindowCreate>, from: number, to: number) =>
      plan({ ...target, startsAt: hoursAgo(from).toISOString(), endsAt: hoursAgo(to).toISOString() });
    const other = await make.room(annex.id, { name: 'Other' });
    const elsewhere = await make.equipment(other.id, { name: 'Elsewhere' });
    await setHistory(inventory.sut, projector.id, [
      ['active', hoursAgo(800)],
      ['inactive', hoursAgo(100)],
      ['active', hoursAgo(50)],
    ]);
    for (const e of [printer, elsewhere]) await setHistory(inventory.sut, e.id, [['active', hoursAgo(800)]]);
    // The projector's own, in its down time: 10 h less down.
    await window({ equipmentId: projector.id }, 90, 80);
    // The lab's and the building's overlap: 20 h less up, counted once.
    await window({ roomId: lab.id }, 40, 30);
    await window({ buildingId: hall.id }, 35, 20);
    // Begins before the report's 720 hours: only its last 10 h count.
    await window({ roomId: lab.id }, 730, 710);
    // Of another equipment, and after the report's end: neither counts for the projector.
    await window({ equipmentId: screen.id }, 70, 60);
    await plan({ roomId: lab.id, startsAt: hoursAgo(-1).toISOString(), endsAt: hoursAgo(-3).toISOString() });

    const page = await send(messages.inventory.report, { asOf: new Date(asOf).toISOString(), limit: 1000 });
    const line = (e: Equipment) => page.items.find((item) => item.equipmentId === e.id)!;
    // 620 + 50 h up less 10 + 20, 50 h down less 10.
    expect(line(projector)).toMatchObject({ uptimeHours: 640, downtimeHours: 40, uptimePercent: 94.1 });
    // The office's printer is under the building's window only.
    expect(line(printer)).toMatchObject({ uptimeHours: 705, downtimeHours: 0, uptimePercent: 100 });
    expect(line(elsewhere)).toMatchObject({ uptimeHours: 720, downtimeHours: 0, uptimePercent: 100 });

    for (const e of [projector, printer, elsewhere]) {
      const history = await send(messages.inventory.equipmentHistory, {
        id: e.id,
        from: new Date(asOf - 720 * HOUR).toISOString(),
        to: new Date(asOf).toISOString(),
      });
      expect([e.name, history.summary.uptime]).toEqual([
        e.name,
        { percent: line(e).uptimePercent, upHours: line(e).uptimeHours, downHours: line(e).downtimeHours },
      ]);
    }
  });

  it('says which equipment is inside a window at a time, for many at once', async () => {
    const sut = inventory.sut.app.get(MaintenanceWindowsService);
    const other = await make.room(annex.id, { name: 'Other' });
    const elsewhere = await make.equipment(other.id, { name: 'Elsewhere' });
    const onOffice = await plan({ roomId: office.id });
    const onProjector = await plan({ equipmentId: projector.id });
    const onAnnex = await plan({
      buildingId: annex.id,
      startsAt: hoursFromNow(-48),
      endsAt: hoursFromNow(-24),
    });
    await plan({ equipmentId: screen.id, startsAt: hoursFromNow(1), endsAt: hoursFromNow(2) });

    const now = await sut.coveringEquipment([
      projector.id,
      screen.id,
      printer.id,
      elsewhere.id,
      randomUUID(),
    ]);
    expect([...now.keys()].sort()).toEqual([projector.id, printer.id].sort());
    expect(now.get(printer.id)).toEqual([onOffice]);
    expect(now.get(projector.id)).toEqual([onProjector]);

    const dayAgo = new Date(Date.now() - 30 * HOUR);
    expect([...(await sut.coveringEquipment([elsewhere.id, printer.id], dayAgo)).entries()]).toEqual([
      [elsewhere.id, [onAnnex]],
    ]);
    await expect(sut.isInWindow(printer.id)).resolves.toBe(true);
    await expect(sut.isInWindow(screen.id)).resolves.toBe(false);
    await expect(sut.isInWindow(screen.id, new Date(Date.now() + 1.5 * HOUR))).resolves.toBe(true);
    await expect(sut.coveringEquipment([])).resolves.toEqual(new Map());
  });
});
