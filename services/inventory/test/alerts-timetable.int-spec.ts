import { messages } from '@cm/contracts';
import { JetStreamConnection } from '@cm/platform';
import { eventually } from '@cm/platform/testing';
import { channelsTestEnv, pendingDelivery, smtpForTests, webhookChannel } from './receivers';
import { inventoryUnderTest, monitorOf, sql } from './support';
import { publishSweep, type SweptCheck } from './support/status-sweep';
import { HeldClock, timetables } from './support/timetable';

const WINDOW_MS = 1000;
const env: Record<string, string> = {
  ...channelsTestEnv(),
  ALERTS_RETRY_MAX_MS: '400',
  ALERT_AFTER_FAILED_CHECKS: '2',
  ALERT_GROUP_WINDOW_MS: String(WINDOW_MS),
  SCHEDULE_TIME_ZONE: 'UTC',
  SCHEDULE_POLL_TICK_MS: '3600000',
};

/** A mail's body as a person reads it: quoted-printable undone. */
const readable = (data: string) =>
  Buffer.from(
    data
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');

/**
 * Severity by the timetable: the test holds the clocks (the outbox's and the schedules') at a
 * Monday morning before teaching hours, and devices on loopback go down.
 */
describe('alerts that know the timetable', () => {
  const smtp = smtpForTests(env);
  const inventory = inventoryUnderTest(env);
  const { make, send } = inventory;
  let monitor: JetStreamConnection;
  const clock = new HeldClock('2026-03-02T08:45:00Z');
  const timetable = timetables(inventory);
  beforeAll(async () => {
    monitor = await monitorOf(inventory.namespace);
    clock.hold(inventory.sut);
  });
  afterAll(() => monitor?.close());

  const sweep = (checks: SweptCheck[]) => publishSweep(monitor, inventory.namespace, checks);

  it('sends an alert in a room with a class soon or in progress at once, marked urgent with the class, even outside teaching hours', async () => {
    const building = await make.building({ name: 'Science Hall' });
    const room204 = await make.room(building.id, { name: '204' });
    const room205 = await make.room(building.id, { name: '205' });
    const room206 = await make.room(building.id, { name: '206' });
    const projector = await make.equipment(room204.id, { name: 'Projector', ipAddress: '127.0.40.2' });
    const camera = await make.equipment(room205.id, { name: 'Camera', ipAddress: '127.0.40.3' });
    const microphone = await make.equipment(room205.id, { name: 'Microphone', ipAddress: '127.0.40.4' });
    const screen = await make.equipment(room206.id, { name: 'Screen', ipAddress: '127.0.40.5' });
    const { receiver, channel: hook } = await webhookChannel(inventory, building.id);
    await send(messages.inventory.createChannel, {
      name: 'AV desk',
      type: 'email',
      recipients: ['av-urgent@example.edu'],
      buildingIds: [building.id],
    });
    // Teaching hours from 10:00: at 08:45 an alert would wait for the digest.
    const hours = { days: [1, 2, 3, 4, 5, 6, 7], start: '10:00', end: '18:00', timeZone: 'UTC' };
    await send(messages.inventory.setQuietHours, {
      buildingId: building.id,
      quietHours: { ...hours, outside: 'digest' },
    });
    // 204 has a class at 09:00 (15 minutes away); 205's is at 09:40 (55 minutes away); 206's at 09:00.
    await timetable(room204, '204,PHYS 101,2026-03-02,09:00,10:15');
    await timetable(room205, '205,ECON 101,2026-03-02,09:40,10:30');
    await timetable(room206, '206,BIO 110,2026-03-02,09:00,10:15');
    /** Two failed sweeps (ALERT_AFTER_FAILED_CHECKS) open or update the alert; its message waits the group window. */
    const failTwice = async (checks: SweptCheck[], kind: string) => {
      await sweep(checks);
      await sweep(checks);
      await pendingDelivery(inventory.sut, hook.id, kind);
      clock.at += WINDOW_MS;
    };
    /** The receiver's `count`th message, once it has come. */
    const message = async (count: number) => {
      await eventually(() => expect(receiver.received).toHaveLength(count));
      return receiver.received[count - 1].body;
    };

    try {
      await failTwice(
        [
          [projector, 'inactive'],
          [camera, 'inactive'],
        ],
        'alert.opened',
      );
      expect(await message(1)).toMatchObject({
        version: 2,
        kind: 'alert.opened',
        urgent: true,
        class: {
          title: 'PHYS 101',
          startsAt: '2026-03-02T09:00:00.000Z',
          endsAt: '2026-03-02T10:15:00.000Z',
        },
        alert: { room: { id: room204.id } },
      });
      const mails = () => smtp.mails.filter((m) => m.to.includes('av-urgent@example.edu'));
      await eventually(() => expect(mails()).toHaveLength(1));
      expect(mails()[0].data).toContain('Subject: Urgent: Room 204, Science Hall: 1 of 1 device offline');
      expect(readable(mails()[0].data)).toContain('Class: PHYS 101, 09:00–10:15 UTC');

      // 205's class is not close yet: its alert waits for the digest at 10:00, without a class.
      const digests = await sql<{ text: string; due: Date; urgent: boolean | null }>(
        inventory.sut,
        `SELECT payload->>'text' AS text, next_attempt_at AS due, (payload->>'urgent')::boolean AS urgent
           FROM inv.deliveries WHERE channel_id = $1 AND kind = 'alert.digest'`,
        [hook.id],
      );
      expect(digests).toEqual([
        {
          text: expect.stringContaining('Room 205, Science Hall: 1 of 2 devices offline'),
          due: new Date('2026-03-02T10:00:00Z'),
          urgent: null,
        },
      ]);

      // At 09:10 206's class has been running for ten minutes: its screen going down is urgent, with the class.
      clock.set('2026-03-02T09:10:00Z');
      await failTwice([[screen, 'inactive']], 'alert.opened');
      expect(await message(2)).toMatchObject({
        kind: 'alert.opened',
        urgent: true,
        class: { title: 'BIO 110', startsAt: '2026-03-02T09:00:00.000Z', endsAt: '2026-03-02T10:15:00.000Z' },
        alert: { room: { id: room206.id } },
      });

      // At 09:20 205's class is 20 minutes away: its next message goes out at once, urgent.
      clock.set('2026-03-02T09:20:00Z');
      await failTwice([[microphone, 'inactive']], 'alert.updated');
      expect(await message(3)).toMatchObject({
        kind: 'alert.updated',
        urgent: true,
        class: { title: 'ECON 101', startsAt: '2026-03-02T09:40:00.000Z' },
        alert: { room: { id: room205.id }, devices: [{ name: 'Camera' }, { name: 'Microphone' }] },
      });

      // 204's projector answers during its class: the recovery goes out at once, with the class, not urgent.
      await sweep([[projector, 'active']]);
      const recovery = await message(4);
      expect(recovery).toMatchObject({ kind: 'alert.recovered', class: { title: 'PHYS 101' } });
      expect(recovery.urgent).toBeUndefined();
    } finally {
      await receiver.close();
    }
  });
});
