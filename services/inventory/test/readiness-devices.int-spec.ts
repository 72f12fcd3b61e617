import { messages } from '@cm/contracts';
import { eventually, NetnsLab } from '@cm/platform/testing';
import { PjlinkSimulator } from '@cm/simulators';
import { DELIVERY_CLOCK } from '../src/alerting/notifications/delivery-clock';
import { READINESS_CLOCK } from '../src/readiness/readiness-config';
import { ReadinessService } from '../src/readiness/readiness.service';
import { SCHEDULE_CLOCK } from '../src/schedules/schedule-clock';
import { channelsTestEnv, pendingDelivery, webhookChannel } from './receivers';
import { inventoryUnderTest } from './support';
import { startMonitor, TEST_NETWORKS } from './support/monitor';
import { HeldClock, timetables } from './support/timetable';

/** 127.0.49.0/24 is this file's. */
const PROJECTOR = '127.0.49.1';
const WINDOW_MS = 1000;

/**
 * The readiness check and the urgent alerts with the clock the test holds, run by the real
 * monitor's room check against devices that go down: a PJLink projector on loopback that the test
 * stops, and a display in a network namespace lab whose address the test takes away.
 */
describe('the readiness check and urgent alerts, against devices that go down', () => {
  const inventory = inventoryUnderTest({
    ...channelsTestEnv(),
    ALERT_AFTER_FAILED_CHECKS: '1',
    MONITOR_ALLOWED_NETWORKS: TEST_NETWORKS,
    ALERT_GROUP_WINDOW_MS: String(WINDOW_MS),
    SCHEDULE_TIME_ZONE: 'UTC',
    SCHEDULE_POLL_TICK_MS: '3600000',
    // Rounds run when the test asks, not on a timer.
    READINESS_TICK_MS: '3600000',
    READINESS_LEAD_MINUTES: '20',
  });
  const { make, send } = inventory;
  const clock = new HeldClock('2026-03-02T08:30:00Z');
  const timetable = timetables(inventory);
  let lab: NetnsLab;
  let projector: PjlinkSimulator;
  let monitor: Awaited<ReturnType<typeof startMonitor>>;
  beforeAll(async () => {
    clock.hold(inventory.sut, [READINESS_CLOCK, SCHEDULE_CLOCK, DELIVERY_CLOCK]);
    lab = NetnsLab.create();
    projector = await PjlinkSimulator.start({ host: PROJECTOR, class: 2 });
  });
  afterAll(async () => {
    await projector?.close();
    lab?.destroy();
  });
  // Stopped before the outer afterAll stops inventory and drops the namespace.
  describe('with the real monitor', () => {
    beforeAll(async () => {
      monitor = await startMonitor(inventory.namespace);
    });
    afterAll(() => monitor?.close());
    it(
      'lists a class ready, the next one at risk once its devices are down, and sends their alerts urgent with that class',
      testDevicesGoingDown,
    );
  });

  const round = () => inventory.sut.app.get(ReadinessService).checkDue();
  const readiness = () =>
    send(messages.inventory.listReadiness, { from: '2026-03-02T08:00:00Z', to: '2026-03-02T13:00:00Z' });

  async function testDevicesGoingDown() {
    const building = await make.building({ name: 'Hall B' });
    const room = await make.room(building.id, { name: '110' });
    const display = lab.answering[1];
    const lectern = await make.equipment(room.id, {
      name: 'Projector',
      ipAddress: PROJECTOR,
      probe: { type: 'pjlink', port: projector.port, intervalSeconds: 3600 },
    });
    const screen = await make.equipment(room.id, { name: 'Display', ipAddress: display });
    const { receiver, channel } = await webhookChannel(inventory, building.id);
    await timetable(room, '110,PHYS 101,2026-03-02,09:00,10:00', '110,CHEM 201,2026-03-02,11:00,12:00');
    try {
      // The monitor hears of the projector's probe shortly after it is saved.
      await eventually(async () => {
        const check = await send(messages.monitor.checkRoom, {
          roomId: room.id,
          equipment: [
            { equipmentId: lectern.id, ipAddress: PROJECTOR },
            { equipmentId: screen.id, ipAddress: display },
          ],
        });
        expect(check.equipment).toMatchObject([
          { status: 'active', probe: { outcome: 'answered' } },
          { status: 'active', probe: null },
        ]);
      });

      // 08:41: PHYS 101 is 19 minutes away; its room is checked and everything answers.
      clock.set('2026-03-02T08:41:00Z');
      await round();
      expect((await readiness()).map((c) => [c.title, c.state, c.reasons])).toEqual([
        ['PHYS 101', 'ready', []],
        ['CHEM 201', 'not-checked', []],
      ]);

      // By 10:41 the projector is switched off at the wall and the display is off the network.
      clock.set('2026-03-02T10:41:00Z');
      await projector.close();
      lab.silence(display);
      await round();
      const [phys, chem] = await readiness();
      expect(phys).toMatchObject({ title: 'PHYS 101', state: 'ready' });
      expect(chem).toMatchObject({
        title: 'CHEM 201',
        state: 'at-risk',
        reasons: [`Display (${display}) offline`, expect.stringMatching(/^Projector \(127\.0\.49\.1\): \S/)],
      });

      // What the check found opens alerts, outside any teaching hours set: urgent, with CHEM 201.
      await eventually(() => expect(receiver.received.map((r) => r.body.kind)).toEqual(['fault.opened']));
      // The room alert waits its group window, from when the display's failure reached inventory:
      // the clock moves once it waits (moved before, on a loaded machine, the window began after
      // the move and never ran out).
      await pendingDelivery(inventory.sut, channel.id, 'alert.opened');
      clock.at += WINDOW_MS;
      await eventually(() => expect(receiver.received).toHaveLength(2));
      const chemistry = {
        title: 'CHEM 201',
        startsAt: '2026-03-02T11:00:00.000Z',
        endsAt: '2026-03-02T12:00:00.000Z',
      };
      expect(receiver.received.map((r) => r.body)).toMatchObject([
        { kind: 'fault.opened', urgent: true, class: chemistry, data: { equipment: { address: PROJECTOR } } },
        {
          kind: 'alert.opened',
          urgent: true,
          class: chemistry,
          alert: { room: { id: room.id }, devices: [{ name: 'Display' }] },
        },
      ]);
    } finally {
      await receiver.close();
    }
  }
});
