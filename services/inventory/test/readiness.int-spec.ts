import { messages, namespacedSubject, type RoomCheckRequest, type RoomCheckResult } from '@cm/contracts';
import { testNatsUrl } from '@cm/platform/testing';
import { connect, type NatsConnection } from 'nats';
import { READINESS_CLOCK } from '../src/readiness/readiness-config';
import { ReadinessService } from '../src/readiness/readiness.service';
import { SCHEDULE_CLOCK } from '../src/schedules/schedule-clock';
import { type Inventory, inventoryUnderTest, startInventory } from './support';
import { HeldClock, timetables } from './support/timetable';

/**
 * The monitor's room check on loopback: it answers for the room's equipment as the devices are
 * now (the test takes one down, or makes its deep probe fail), and counts the checks it was asked.
 */
class Devices {
  readonly down = new Set<string>();
  readonly probeFaults = new Map<string, string>();
  readonly asked: RoomCheckRequest[] = [];
  private nc?: NatsConnection;

  async start(namespace: string): Promise<void> {
    this.nc = await connect({ servers: testNatsUrl, name: 'room-check-devices' });
    this.nc.subscribe(namespacedSubject(namespace, messages.monitor.checkRoom.subject), {
      callback: (_error, msg) => {
        const { data } = JSON.parse(new TextDecoder().decode(msg.data)) as { data: RoomCheckRequest };
        this.asked.push(data);
        const result: RoomCheckResult = {
          roomId: data.roomId,
          checkedAt: new Date().toISOString(),
          durationMs: 3,
          recorded: true,
          message: `Checked ${data.equipment.length} equipment`,
          equipment: data.equipment.map((e) => ({
            equipmentId: e.equipmentId,
            status: this.down.has(e.equipmentId) ? 'inactive' : 'active',
            rttMs: this.down.has(e.equipmentId) ? null : 0.2,
            probe: this.probeFaults.has(e.equipmentId)
              ? { type: 'pjlink', outcome: 'auth-failed', detail: this.probeFaults.get(e.equipmentId) }
              : null,
          })),
        };
        msg.respond(new TextEncoder().encode(JSON.stringify(result)));
      },
    });
    await this.nc.flush();
  }

  close = () => this.nc?.close();
}

describe('the readiness check before classes', () => {
  const env = {
    SCHEDULE_TIME_ZONE: 'UTC',
    SCHEDULE_POLL_TICK_MS: '3600000',
    // Rounds run when the test asks, not on a timer.
    READINESS_TICK_MS: '3600000',
    READINESS_LEAD_MINUTES: '20',
  };
  const inventory = inventoryUnderTest(env);
  const { make, send } = inventory;
  const devices = new Devices();
  let second: Inventory;
  const clock = new HeldClock('2026-03-02T08:30:00Z');
  const hold = (replica: Inventory) => clock.hold(replica, [READINESS_CLOCK, SCHEDULE_CLOCK]);
  const timetable = timetables(inventory);
  beforeAll(async () => {
    hold(inventory.sut);
    await devices.start(inventory.namespace);
  });
  afterAll(() => devices.close());
  // Closed before the outer afterAll drops the namespace.
  describe('with two replicas', () => {
    beforeAll(async () => {
      second = await startInventory(inventory.namespace, env);
      hold(second);
    });
    afterAll(() => second?.close());
    itChecksOnce();
  });

  const round = () =>
    Promise.all([inventory.sut, second].map((replica) => replica.app.get(ReadinessService).checkDue()));
  const readiness = () =>
    send(messages.inventory.listReadiness, { from: '2026-03-02T08:00:00Z', to: '2026-03-02T12:00:00Z' });

  function itChecksOnce() {
    it('checks each room N minutes before its class, once across replicas, and lists it ready or at risk with reasons', async () => {
      const building = await make.building({ name: 'Hall A' });
      const room101 = await make.room(building.id, { name: '101' });
      const room102 = await make.room(building.id, { name: '102' });
      const projector = await make.equipment(room101.id, { name: 'Projector', ipAddress: '127.0.41.2' });
      const display = await make.equipment(room101.id, { name: 'Display', ipAddress: '127.0.41.3' });
      await make.equipment(room102.id, { name: 'Camera', ipAddress: '127.0.41.4' });
      await timetable(room101, '101,PHYS 101,2026-03-02,09:00,10:00', '101,CHEM 201,2026-03-02,11:00,12:00');
      await timetable(room102, '102,ECON 101,2026-03-02,09:10,10:00');
      devices.down.add(display.id);
      devices.probeFaults.set(projector.id, 'The projector refused the PJLink password');

      // 08:30: no class within 20 minutes, nothing checked.
      await round();
      expect(devices.asked).toEqual([]);
      expect((await readiness()).map((c) => [c.title, c.state])).toEqual([
        ['PHYS 101', 'not-checked'],
        ['ECON 101', 'not-checked'],
        ['CHEM 201', 'not-checked'],
      ]);

      // 08:41: PHYS 101 is 19 minutes away; both replicas look, one checks.
      clock.set('2026-03-02T08:41:00Z');
      await round();
      expect(devices.asked.map((a) => a.roomId)).toEqual([room101.id]);
      expect(devices.asked[0].equipment).toHaveLength(2);

      // 08:51: ECON 101 too; PHYS 101 is not checked again.
      clock.set('2026-03-02T08:51:00Z');
      await round();
      expect(devices.asked.map((a) => a.roomId)).toEqual([room101.id, room102.id]);

      const [phys, econ, chem] = await readiness();
      expect(phys).toMatchObject({
        title: 'PHYS 101',
        startsAt: '2026-03-02T09:00:00.000Z',
        endsAt: '2026-03-02T10:00:00.000Z',
        room: { id: room101.id, name: '101' },
        building: { id: building.id, name: 'Hall A' },
        state: 'at-risk',
        reasons: [
          'Display (127.0.41.3) offline',
          'Projector (127.0.41.2): The projector refused the PJLink password',
        ],
        checkedAt: expect.any(String),
      });
      expect(econ).toMatchObject({ title: 'ECON 101', state: 'ready', reasons: [] });
      expect(chem).toMatchObject({ title: 'CHEM 201', state: 'not-checked', reasons: [], checkedAt: null });
    });
  }
});
