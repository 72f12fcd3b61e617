import { randomUUID } from 'node:crypto';
import { ErrorCode, messages } from '@cm/contracts';
import { JetStreamConnection } from '@cm/platform';
import { eventually } from '@cm/platform/testing';
import { MorningSummary } from '../src/alerting/summary/morning-summary.service';
import { channelsTestEnv, startReceiver } from './receivers';
import { failureOf, inventoryUnderTest, monitorOf, sql } from './support';
import { publishSweep, type SweptCheck } from './support/status-sweep';
import { HeldClock, timetables } from './support/timetable';

const env: Record<string, string> = {
  ...channelsTestEnv(),
  ALERT_AFTER_FAILED_CHECKS: '2',
  ALERT_GROUP_WINDOW_MS: '0',
  SCHEDULE_TIME_ZONE: 'UTC',
  SCHEDULE_POLL_TICK_MS: '3600000',
  // The summary's rounds run when the test asks, at the time its clock says.
  READINESS_TICK_MS: '3600000',
};

/**
 * The morning summary and the rooms held for the morning: the test holds the outbox's and the
 * schedules' clocks, devices on loopback go down through the monitor's status stream.
 */
describe('the morning summary and rooms with no more classes today', () => {
  const inventory = inventoryUnderTest(env);
  const { make, send } = inventory;
  let monitor: JetStreamConnection;
  const clock = new HeldClock('2026-03-02T06:30:00Z');
  const timetable = timetables(inventory);
  beforeAll(async () => {
    monitor = await monitorOf(inventory.namespace);
    clock.hold(inventory.sut);
  });
  afterAll(() => monitor?.close());

  const sweep = (checks: SweptCheck[]) => publishSweep(monitor, inventory.namespace, checks);

  const deliveriesOf = (channelId: string) =>
    sql<{ kind: string; text: string; due: Date }>(
      inventory.sut,
      `SELECT kind, payload->>'text' AS text, next_attempt_at AS due
         FROM inv.deliveries WHERE channel_id = $1 ORDER BY created_at, id`,
      [channelId],
    );

  it('sends the rooms at risk before the day’s classes to the chosen channels, once a day at its time', async () => {
    const summary = inventory.sut.app.get(MorningSummary);
    const library = await make.building({ name: 'Library' });
    const [r101, r102, r103] = await Promise.all(
      ['101', '102', '103'].map((name) => make.room(library.id, { name })),
    );
    const projector = await make.equipment(r101.id, { name: 'Projector', ipAddress: '127.0.41.2' });
    await make.equipment(r102.id, { name: 'Display', ipAddress: '127.0.41.3' });
    await timetable(r101, '101,ECON 101,2026-03-02,09:00,10:15', '101,ECON 101,2026-03-03,09:00,10:15');
    await timetable(r102, '102,HIST 200,2026-03-02,10:30,11:45');
    await timetable(r103, '103,ARTS 110,2026-03-01,10:00,11:00');
    const chosenHook = await startReceiver(() => chosen.secret!);
    const otherHook = await startReceiver(() => other.secret!);
    const chosen = await send(messages.inventory.createChannel, {
      name: 'AV morning',
      type: 'webhook',
      url: chosenHook.url,
    });
    const other = await send(messages.inventory.createChannel, {
      name: 'Facilities',
      type: 'webhook',
      url: otherHook.url,
    });
    try {
      expect(await send(messages.inventory.getReadinessSummary)).toEqual({
        time: null,
        timeZone: 'UTC',
        channelIds: [],
      });
      const unknown = randomUUID();
      expect(
        await failureOf(
          send(messages.inventory.setReadinessSummary, {
            time: '07:00',
            timeZone: 'UTC',
            channelIds: [unknown],
          }),
        ),
      ).toMatchObject({ code: ErrorCode.CHANNEL_NOT_FOUND, message: expect.stringContaining(unknown) });
      expect(
        await send(messages.inventory.setReadinessSummary, {
          time: '07:00',
          timeZone: 'UTC',
          channelIds: [chosen.id],
        }),
      ).toEqual({ time: '07:00', timeZone: 'UTC', channelIds: [chosen.id] });

      await sweep([[projector, 'inactive']]);
      await sweep([[projector, 'inactive']]);
      const summaries = async (channelId: string) =>
        (await deliveriesOf(channelId)).filter((d) => d.kind === 'readiness.summary');

      // 06:59: not its time yet.
      clock.set('2026-03-02T06:59:00Z');
      await summary.sendDue();
      expect(await summaries(chosen.id)).toEqual([]);

      clock.set('2026-03-02T07:00:00Z');
      await summary.sendDue();
      await eventually(() =>
        expect(chosenHook.received.filter((r) => r.body.kind === 'readiness.summary')).toHaveLength(1),
      );
      const sent = chosenHook.received.find((r) => r.body.kind === 'readiness.summary')!;
      expect(sent.body.text).toBe(
        [
          'Before class, 2026-03-02 (UTC): 1 room at risk before 09:00 classes',
          '09:00 ECON 101 — Room 101, Library: Projector (127.0.41.2) offline',
          '1 room with classes today ready.',
        ].join('\n'),
      );
      expect(sent.body).toMatchObject({ data: { day: '2026-03-02', atRisk: 1, rooms: 2 } });

      // Asked again that morning (another replica, a later round): no second summary.
      clock.set('2026-03-02T07:05:00Z');
      await summary.sendDue();
      expect(await summaries(chosen.id)).toHaveLength(1);
      expect(await summaries(other.id)).toEqual([]);

      // The next morning the projector answers again: all ready.
      await sweep([[projector, 'active']]);
      clock.set('2026-03-03T07:01:00Z');
      await summary.sendDue();
      const next = await summaries(chosen.id);
      expect(next).toHaveLength(2);
      expect(next[1].text).toBe('Before class, 2026-03-03 (UTC): All 1 room with classes today ready');
    } finally {
      await chosenHook.close();
      await otherHook.close();
    }
  });

  it('holds the alerts of a room with no more classes today for the next morning, when the building says so', async () => {
    clock.set('2026-03-04T11:00:00Z');
    const hall = await make.building({ name: 'Arts Hall' });
    const [done, later, unscheduled] = await Promise.all(
      ['201', '202', '203'].map((name) => make.room(hall.id, { name })),
    );
    const camera = await make.equipment(done.id, { name: 'Camera', ipAddress: '127.0.41.10' });
    const speaker = await make.equipment(later.id, { name: 'Speaker', ipAddress: '127.0.41.11' });
    const screen = await make.equipment(unscheduled.id, { name: 'Screen', ipAddress: '127.0.41.12' });
    await timetable(done, '201,DRAW 100,2026-03-04,09:00,10:00');
    await timetable(later, '202,MUSIC 210,2026-03-04,15:00,16:00');
    const channel = await send(messages.inventory.createChannel, {
      name: 'Arts AV',
      type: 'webhook',
      url: 'http://127.0.0.1:9/unused',
      buildingIds: [hall.id],
      enabled: true,
    });
    await send(messages.inventory.setQuietHours, {
      buildingId: hall.id,
      quietHours: {
        days: [1, 2, 3, 4, 5],
        start: '08:00',
        end: '18:00',
        timeZone: 'UTC',
        outside: 'digest',
        idleRoomsWait: true,
      },
    });
    expect(await send(messages.inventory.getQuietHours, { buildingId: hall.id })).toMatchObject({
      quietHours: { idleRoomsWait: true },
    });

    await sweep([
      [camera, 'inactive'],
      [speaker, 'inactive'],
      [screen, 'inactive'],
    ]);
    await sweep([
      [camera, 'inactive'],
      [speaker, 'inactive'],
      [screen, 'inactive'],
    ]);
    await eventually(async () => {
      const rows = await deliveriesOf(channel.id);
      // 202 has a class at 15:00 and 203 no timetable at all: theirs go out now. 201's class is
      // over: its alert waits for Thursday's first teaching minute.
      expect(
        rows
          .filter((r) => r.kind === 'alert.opened')
          .map((r) => r.text.split(':')[0])
          .sort(),
      ).toEqual(['Room 202, Arts Hall', 'Room 203, Arts Hall']);
      expect(rows.filter((r) => r.kind === 'alert.digest')).toEqual([
        {
          kind: 'alert.digest',
          text: 'Arts Hall, held for the morning:\nRoom 201, Arts Hall: 1 of 1 device offline — Camera (127.0.41.10) (no more classes today)',
          due: new Date('2026-03-05T08:00:00Z'),
        },
      ]);
    });

    // Without the setting, the room's next message goes out at once.
    await send(messages.inventory.setQuietHours, {
      buildingId: hall.id,
      quietHours: { days: [1, 2, 3, 4, 5], start: '08:00', end: '18:00', timeZone: 'UTC', outside: 'digest' },
    });
    await sweep([[camera, 'active']]);
    await eventually(async () =>
      expect((await deliveriesOf(channel.id)).map((r) => r.kind)).toContain('alert.recovered'),
    );
  });
});
