import { randomUUID } from 'node:crypto';
import { type Building, type ReadinessClass, type Room, type RoomCheckResult } from '@cm/contracts';
import { eventually } from '@cm/platform/testing';
import { PjlinkSimulator } from '@cm/simulators';
import { sessionApi, signIn } from './session';
import { type SharedSystem, sharedSystem } from './shared-system';
import { addRoomTimetable, calendarFile } from './support/calendar';

/** The shared system checks a room READINESS_LEAD_MINUTES (20) before a class, looking every 30 s. */
const DEADLINE_MS = 150_000;
jest.setTimeout(3 * DEADLINE_MS);

/**
 * The readiness check through the whole system, with the monitor's own room check: two projectors
 * on loopback (127.0.39.0/24 is this file's), one of which goes down before a class that begins in
 * ten minutes; the check runs by itself and the readiness list names the one that is down.
 */
describe('the readiness check before a class, through the whole system', () => {
  let system: SharedSystem;
  let cookie = '';
  const api = async <T>(method: string, route: string, body?: unknown): Promise<T> => {
    const res = await sessionApi(
      () => system.url,
      () => cookie,
    )<T>(method, route, body);
    if (res.status >= 300) throw new Error(`${method} ${route} answered ${res.status}`);
    return res.body;
  };
  let lectern: PjlinkSimulator;
  let spare: PjlinkSimulator;
  const suffix = randomUUID().slice(0, 6);

  beforeAll(async () => {
    system = sharedSystem();
    cookie = await signIn(system.url, system.admin.username, system.admin.password);
    lectern = await PjlinkSimulator.start({ host: '127.0.39.1', class: 2, lamps: [{ hours: 10, on: true }] });
    spare = await PjlinkSimulator.start({ host: '127.0.39.2', class: 2, lamps: [{ hours: 10, on: true }] });
  });
  afterAll(async () => {
    await lectern?.close();
    await spare?.close();
  });

  it('checks the room before its class by itself, and lists it at risk naming the projector that went down', async () => {
    const building = await api<Building>('POST', '/api/buildings', { name: `Readiness Hall ${suffix}` });
    const room = await api<Room>('POST', `/api/buildings/${building.id}/rooms`, {
      name: 'R-101',
      type: 'Classroom',
      floor: '1',
    });
    for (const [name, device] of [
      ['Lectern projector', lectern],
      ['Spare projector', spare],
    ] as const) {
      await api('POST', `/api/rooms/${room.id}/equipment`, {
        name,
        type: 'Projector',
        ipAddress: device.host,
        probe: { type: 'pjlink', port: device.port, intervalSeconds: 3600 },
      });
    }
    // Both answer at first (the monitor hears of the probes' settings shortly after they are saved).
    await eventually(
      async () => {
        const result = await api<RoomCheckResult>('POST', `/api/rooms/${room.id}/check`);
        expect(result.equipment.map((e) => e.probe?.outcome)).toEqual(['answered', 'answered']);
      },
      DEADLINE_MS,
      1000,
    );

    await spare.close();
    // A class ten minutes from now: within the 20 minutes before it, so due for its check at once.
    const start = Date.now() + 10 * 60_000;
    await addRoomTimetable(
      system.url,
      cookie,
      room,
      calendarFile([{ uid: `phys-${suffix}@e2e`, title: 'PHYS 101', start, end: start + 75 * 60_000 }]),
    );

    const from = new Date(Date.now() - 60_000).toISOString();
    const to = new Date(Date.now() + 3_600_000).toISOString();
    const listed = await eventually(
      async () => {
        const classes = await api<ReadinessClass[]>('GET', `/api/readiness?from=${from}&to=${to}`);
        const ours = classes.find((c) => c.room.id === room.id);
        expect(ours?.state).toBe('at-risk');
        return ours!;
      },
      DEADLINE_MS,
      1000,
    );
    expect(listed).toMatchObject({
      title: 'PHYS 101',
      building: { id: building.id },
      checkedAt: expect.any(String),
    });
    // The projector that answers is not a reason; the one that went down is, by name and address.
    expect(listed.reasons).toEqual([expect.stringMatching(/^Spare projector \(127\.0\.39\.2\): /)]);
  });
});
