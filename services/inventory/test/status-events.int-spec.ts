import { randomUUID } from 'node:crypto';
import { type Equipment, events, namespacedName, messages, type StatusEvent, streams } from '@cm/contracts';
import { JetStreamConnection } from '@cm/platform';
import { eventually } from '@cm/platform/testing';
import { HistoryRetentionService } from '../src/status/checks/history-retention.service';
import { STATUS_CONSUMER, StatusEventsConsumer } from '../src/status/checks/status-events.consumer';
import {
  dropNamespace,
  type Inventory,
  inventoryUnderTest,
  newNamespace,
  monitorOf,
  setHistory,
  sql,
  startInventory,
} from './support';

const check = (equipmentId: string, over: Partial<StatusEvent> = {}): StatusEvent => ({
  eventId: randomUUID(),
  equipmentId,
  // As the monitor's: short enough that `<equipment>:<sweep>` is a 64-character event id.
  sweepId: randomUUID().slice(0, 18),
  status: 'inactive',
  checkedAt: new Date().toISOString(),
  rttMs: null,
  results: [{ address: '127.0.0.1', alive: false, rttMs: null }],
  ...over,
});

/** What the service keeps of an equipment's checks: its state row and its spans. */
const stateOf = async (inventory: Inventory, equipmentId: string) => {
  const [state] = await sql<{
    lastCheckedAt: Date | null;
    lastRttMs: number | null;
    checks: number;
    pings: number;
    pingsAnswered: number;
  }>(
    inventory,
    `SELECT last_checked_at AS "lastCheckedAt", last_rtt_ms AS "lastRttMs",
            hour_checks + COALESCE((SELECT sum(checks) FROM inv.status_days d WHERE d.equipment_id = st.equipment_id), 0)::int AS checks,
            hour_pings AS pings, hour_pings_answered AS "pingsAnswered"
       FROM inv.equipment_state st WHERE equipment_id = $1`,
    [equipmentId],
  );
  return state;
};
const spansOf = (inventory: Inventory, equipmentId: string) =>
  sql<{ status: string; started: Date; ended: Date | null }>(
    inventory,
    `SELECT status, started_at AS started, ended_at AS ended FROM inv.status_spans
      WHERE equipment_id = $1 ORDER BY started_at`,
    [equipmentId],
  );

describe('inventory status events', () => {
  const inventory = inventoryUnderTest();
  const { make, send } = inventory;
  let monitor: JetStreamConnection;
  let equipment: Equipment;
  let batches = 0;
  const publish = (event: StatusEvent, msgId = event.eventId) =>
    monitor.publish(events.statusChecked, event, { msgId });
  /** One batch message, as the monitor sends a sweep's results. */
  const publishBatch = (sweepId: string, checks: unknown[], msgId = `batch-${++batches}`) =>
    monitor.publish(events.statusChecked, { sweepId, checks }, { msgId });
  const current = () => send(messages.inventory.listEquipment, { roomId: equipment.roomId });
  const consumerState = async () => {
    const info = await monitor.jsm.consumers.info(
      namespacedName(inventory.namespace, streams.status.name),
      STATUS_CONSUMER,
    );
    return { pending: info.num_pending, unacked: info.num_ack_pending, redelivered: info.num_redelivered };
  };
  // That the consumer drains is the behaviour; how fast is the bench's. A loaded CI machine took
  // longer than 15 s with 24 checks in flight, so the wait is generous and the tests' budget too.
  const drained = () =>
    eventually(async () => {
      const state = await consumerState();
      expect(state).toMatchObject({ pending: 0, unacked: 0 });
      return state;
    }, 120_000);

  jest.setTimeout(300_000);

  beforeAll(async () => {
    monitor = await monitorOf(inventory.namespace);
  });
  afterAll(() => monitor?.close());
  beforeEach(async () => {
    const building = await make.building();
    const room = await make.room(building.id);
    equipment = await make.equipment(room.id, { ipAddress: '127.0.0.1-3' });
  });

  it('sets the status, the last check and its round trip, and counts the pings', async () => {
    const event = check(equipment.id, {
      status: 'partial',
      rttMs: 0.4,
      results: [
        { address: '127.0.0.1', alive: true, rttMs: 0.4 },
        { address: '127.0.0.2', alive: false, rttMs: null },
        { address: '127.0.0.3', alive: true, rttMs: 0.5 },
      ],
    });
    await publish(event);
    const [after] = await eventually(async () => {
      const equipment = await current();
      expect(equipment[0]).toMatchObject({ status: 'partial', lastRttMs: 0.4 });
      return equipment;
    });
    expect(new Date(after.lastCheckedAt!).toISOString()).toBe(event.checkedAt);
    expect(await stateOf(inventory.sut, equipment.id)).toMatchObject({
      checks: 1,
      pings: 3,
      pingsAnswered: 2,
    });
    expect((await spansOf(inventory.sut, equipment.id)).map((s) => s.status)).toEqual(['active', 'partial']);
  });

  it('records a batch of checks in one message, each equipment on its own', async () => {
    const room = equipment.roomId;
    const others = await Promise.all([1, 2, 3].map((i) => make.equipment(room, { name: `E${i}` })));
    const sweepId = 'sweep-batch';
    await publishBatch(
      sweepId,
      [equipment, ...others].map((e, i) => ({
        ...check(e.id, { status: i % 2 ? 'active' : 'inactive' }),
        eventId: undefined,
      })),
    );
    await drained();
    const statuses = new Map((await current()).map((e) => [e.id, e.status]));
    expect([equipment, ...others].map((e) => statuses.get(e.id))).toEqual([
      'inactive',
      'active',
      'inactive',
      'active',
    ]);
  });

  it('records a check delivered twice once: the same message again, or the same sweep in another batch', async () => {
    const event = check(equipment.id);
    // Two deliveries of one event: beyond the stream's de-duplication, as after a lost ack.
    await publish(event, `${event.eventId}-a`);
    await publish(event, `${event.eventId}-b`);
    // A share handed to another replica: the same equipment and sweep, pinged again a moment later.
    const again = { ...event, checkedAt: new Date(Date.parse(event.checkedAt) + 500).toISOString() };
    await publishBatch(event.sweepId, [again]);
    await drained();
    expect(await stateOf(inventory.sut, equipment.id)).toMatchObject({ checks: 1 });
    expect((await current())[0].status).toBe('inactive');
  });

  describe('a message that comes again after its commit, its acknowledgement lost', () => {
    // Delivered to the service's own consumer as the stream delivers them, with the stream's
    // sequence numbers given here: a redelivery after a commit cannot be provoked through NATS.
    const consumer = () => inventory.sut.app.get(StatusEventsConsumer);
    const hourAgo = Date.now() - 3_600_000;
    const sweep = (n: number) => ({
      sweepId: `again-${n}`,
      checks: [
        {
          ...check(equipment.id, { checkedAt: new Date(hourAgo + n * 1000).toISOString() }),
          eventId: undefined,
        },
      ],
    });
    const delivery = (n: number, streamSequence = 2 ** 40 + n) => ({
      subject: events.statusChecked,
      msgId: `again-${n}`,
      deliveryCount: 1,
      streamSequence,
    });
    const handled = async (msgId: string) =>
      (await sql(inventory.sut, 'SELECT 1 FROM inv.status_messages_handled WHERE message_id = $1', [msgId]))
        .length === 1;

    it('is recognised whole, however many newer checks came first', async () => {
      for (let n = 0; n <= 40; n++) await consumer().handle(sweep(n), delivery(n));
      // Behind 40 newer checks: more than each equipment keeps the times of to place a late one.
      await expect(consumer().handle(sweep(0), { ...delivery(0), deliveryCount: 2 })).resolves.toMatchObject({
        duplicate: 1,
        'too-late': 0,
      });
      expect(await stateOf(inventory.sut, equipment.id)).toMatchObject({ checks: 41 });
      // A check as late that was never recorded is still counted.
      await expect(consumer().handle(sweep(-1), delivery(-1))).resolves.toMatchObject({ 'too-late': 1 });
      expect(await stateOf(inventory.sut, equipment.id)).toMatchObject({ checks: 42 });
    });

    it('is remembered until the stream will not deliver it again', async () => {
      await publishBatch('forget', [{ ...check(equipment.id), eventId: undefined }], 'forget-1');
      await drained();
      // Above the acknowledgement floor: it may still come again.
      await consumer().handle(sweep(1), delivery(1));
      expect([await handled('forget-1'), await handled('again-1')]).toEqual([true, true]);
      await expect(consumer().forgetHandled()).resolves.toBeGreaterThanOrEqual(1);
      expect([await handled('forget-1'), await handled('again-1')]).toEqual([false, true]);
      // Older than the stream keeps a message, it cannot come again either.
      await consumer().forgetHandled(Date.now() + 8 * 24 * 3_600_000);
      expect(await handled('again-1')).toBe(false);
    });
  });

  it('keeps in the history, but does not apply, a check older than the current status', async () => {
    const newer = check(equipment.id, { status: 'inactive' });
    const older = check(equipment.id, {
      status: 'partial',
      checkedAt: new Date(Date.parse(newer.checkedAt) - 60_000).toISOString(),
    });
    await publish(newer);
    await publish(older);
    await drained();
    expect((await current())[0].status).toBe('inactive');
    const spans = await spansOf(inventory.sut, equipment.id);
    // The late check holds from its own time until the next one it precedes.
    expect(spans.map((s) => [s.status, s.started.toISOString()])).toEqual([
      ['partial', older.checkedAt],
      ['active', spans[1].started.toISOString()], // created
      ['inactive', newer.checkedAt],
    ]);
    expect(await stateOf(inventory.sut, equipment.id)).toMatchObject({ checks: 2 });
  });

  it('does not apply a check made before a manual status change', async () => {
    const before = check(equipment.id, { checkedAt: new Date(Date.now() - 5000).toISOString() });
    await send(messages.inventory.updateEquipment, {
      id: equipment.id,
      changes: { name: 'P', status: 'active' },
    });
    await send(messages.inventory.updateEquipment, {
      id: equipment.id,
      changes: { name: 'P', status: 'partial' },
    });
    await publish(before);
    await drained();
    expect((await current())[0].status).toBe('partial');
  });

  it('leaves maintenance alone, which a person sets and a person ends', async () => {
    await send(messages.inventory.updateEquipment, {
      id: equipment.id,
      changes: { name: 'P', status: 'maintenance' },
    });
    const later = check(equipment.id, { checkedAt: new Date(Date.now() + 1000).toISOString() });
    await publish(later);
    await drained();
    const [after] = await current();
    expect(after.status).toBe('maintenance');
    expect(new Date(after.lastCheckedAt!).toISOString()).toBe(later.checkedAt);
  });

  it('acknowledges and drops an event for equipment that no longer exists', async () => {
    const gone = check(randomUUID());
    await publish(gone);
    const state = await drained();
    expect(state).toMatchObject({ pending: 0, unacked: 0 });
    expect(
      await sql(inventory.sut, 'SELECT 1 FROM inv.status_spans WHERE equipment_id = $1', [gone.equipmentId]),
    ).toEqual([]);
  });

  it('records the rest of a batch around a poison check: one that fails its schema, one the database refuses', async () => {
    const room = equipment.roomId;
    const others = await Promise.all([1, 2, 3, 4].map((i) => make.equipment(room, { name: `P${i}` })));
    const good = (e: Equipment) => ({ ...check(e.id, { status: 'inactive' }), eventId: undefined });
    await publishBatch('sweep-poison', [
      good(others[0]),
      { ...good(equipment), status: 'exploded' },
      good(others[1]),
      // A round trip no real column can hold: the transaction fails for this check's data alone.
      { ...good(equipment), rttMs: 1e300 },
      good(others[2]),
      good(others[3]),
    ]);
    const state = await drained();
    expect(state).toMatchObject({ pending: 0, unacked: 0 });
    const statuses = new Map((await current()).map((e) => [e.id, e.status]));
    expect(others.map((e) => statuses.get(e.id))).toEqual(['inactive', 'inactive', 'inactive', 'inactive']);
    expect(statuses.get(equipment.id)).toBe('active');
  });

  it('drops the checks of equipment deleted while its batches are recorded, and records the others', async () => {
    const room = equipment.roomId;
    const fleet = await Promise.all(
      Array.from({ length: 60 }, (_, i) => make.equipment(room, { name: `F${i}` })),
    );
    const sweeps = 15;
    const t0 = Date.now();
    const publishing = (async () => {
      for (let s = 0; s < sweeps; s++) {
        await publishBatch(
          `sweep-del-${s}`,
          fleet.map((e) => ({
            ...check(e.id, { checkedAt: new Date(t0 + s * 1000).toISOString() }),
            eventId: undefined,
          })),
        );
      }
    })();
    const deleted = fleet.filter((_, i) => i % 2 === 0);
    for (const e of deleted) await send(messages.inventory.deleteEquipment, { id: e.id });
    await publishing;
    expect(await drained()).toMatchObject({ pending: 0, unacked: 0 });
    for (const e of fleet.filter((_, i) => i % 2 === 1)) {
      expect(await stateOf(inventory.sut, e.id)).toMatchObject({ checks: sweeps });
    }
    const left = await sql(
      inventory.sut,
      'SELECT 1 FROM inv.status_spans WHERE equipment_id = ANY($1::uuid[])',
      [deleted.map((e) => e.id)],
    );
    expect(left).toEqual([]);
  });

  it('gives the report the uptime the checks themselves give, however late and out of order they arrive', async () => {
    const start = Date.now() - 4 * 3_600_000;
    await sql(inventory.sut, 'UPDATE inv.status_spans SET started_at = $2 WHERE equipment_id = $1', [
      equipment.id,
      new Date(start),
    ]);
    await sql(
      inventory.sut,
      'UPDATE inv.equipment_state SET recent = ARRAY[(extract(epoch FROM $2::timestamptz) * 1000)::bigint], span_started_at = $2, status_at = $2 WHERE equipment_id = $1',
      [equipment.id, new Date(start)],
    );
    const pattern = [
      'active',
      'active',
      'inactive',
      'partial',
      'partial',
      'active',
      'inactive',
      'active',
    ] as const;
    const checks = Array.from({ length: 200 }, (_, i) => ({
      ...check(equipment.id, { status: pattern[(i * 7 + (i >> 3)) % pattern.length] }),
      sweepId: `late-${i}`,
      checkedAt: new Date(start + 60_000 * (i + 1)).toISOString(),
    }));
    // Mostly in order, in batches of ten; every seventh check comes again later, and every
    // eleventh comes up to twenty checks late.
    const order = checks.map((c, i) => ({ c, key: i % 11 === 0 ? i + 20 : i }));
    for (const [i, c] of checks.entries()) if (i % 7 === 0) order.push({ c, key: i + 5.5 });
    order.sort((a, b) => a.key - b.key);
    for (let i = 0; i < order.length; i += 10) {
      for (const { c } of order.slice(i, i + 10))
        await publishBatch(c.sweepId, [{ ...c, eventId: undefined }]);
    }
    await drained();

    const asOf = new Date(start + 60_000 * 205);
    const page = await send(messages.inventory.report, { asOf: asOf.toISOString(), limit: 1000 });
    const line = page.items.find((item) => item.equipmentId === equipment.id)!;
    // The straightforward way: every check holds until the next one.
    const timeline = [
      { at: start, status: 'active' },
      ...checks.map((c) => ({ at: Date.parse(c.checkedAt), status: c.status })),
    ];
    let up = 0;
    let down = 0;
    timeline.forEach((o, i) => {
      const length = (timeline[i + 1]?.at ?? asOf.getTime()) - o.at;
      if (o.status === 'active') up += length;
      else if (o.status !== 'maintenance') down += length;
    });
    expect(line).toMatchObject({
      uptimeHours: Math.round((up / 3_600_000) * 100) / 100,
      downtimeHours: Math.round((down / 3_600_000) * 100) / 100,
      uptimePercent: Math.round((up / (up + down)) * 1000) / 10,
    });
    expect(await stateOf(inventory.sut, equipment.id)).toMatchObject({ checks: 200 });
    expect((await current())[0].status).toBe(checks.at(-1)!.status);
  });

  it('prunes spans that ended before the retention, and keeps the rest', async () => {
    const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000);
    await setHistory(inventory.sut, equipment.id, [
      ['inactive', hoursAgo(9700)],
      ['active', hoursAgo(9601)],
      ['inactive', hoursAgo(9599)],
      ['active', hoursAgo(1)],
    ]);
    await expect(inventory.sut.app.get(HistoryRetentionService).prune()).resolves.toBeGreaterThanOrEqual(1);
    expect((await spansOf(inventory.sut, equipment.id)).map((s) => s.status)).toEqual([
      'active',
      'inactive',
      'active',
    ]);
  });

  it('prunes hour counters after their own, shorter retention', async () => {
    const hour = (h: number) => new Date(Math.floor(Date.now() / 3_600_000 - h) * 3_600_000);
    for (const h of [7 * 24 + 2, 7 * 24 - 2]) {
      await sql(
        inventory.sut,
        `INSERT INTO inv.status_hours (equipment_id, hour, checks, answered, pings, pings_answered, rtt_sum)
         VALUES ($1, $2, 1, 1, 1, 1, 0)`,
        [equipment.id, hour(h)],
      );
    }
    await expect(inventory.sut.app.get(HistoryRetentionService).prune()).resolves.toBeGreaterThanOrEqual(1);
    const kept = await sql<{ hour: Date }>(
      inventory.sut,
      'SELECT hour FROM inv.status_hours WHERE equipment_id = $1',
      [equipment.id],
    );
    expect(kept.map((r) => r.hour.getTime())).toEqual([hour(7 * 24 - 2).getTime()]);
  });
});

describe('inventory status events across a restart', () => {
  const namespace = newNamespace();
  afterAll(() => dropNamespace(namespace));

  it('loses none of the events published while it is stopped or stopping', async () => {
    // A short ack wait: events a stopping replica had pulled but not started come back quickly.
    const env = { INVENTORY_STATUS_ACK_WAIT_MS: '2000' };
    let inventory = await startInventory(namespace, env);
    const monitor = await monitorOf(namespace);
    try {
      const building = await inventory.rpc.send(messages.inventory.createBuilding, {
        name: 'B',
      });
      const room = await inventory.rpc.send(messages.inventory.createRoom, {
        buildingId: building.id,
        room: { name: '1', type: 'Office', floor: '1' },
      });
      const targets = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          inventory.rpc.send(messages.inventory.createEquipment, {
            roomId: room.id,
            equipment: { name: `E${i}`, ipAddress: `127.0.0.${i + 1}` },
          }),
        ),
      );
      const sent: StatusEvent[] = [];
      let publishing = true;
      const publisher = (async () => {
        for (let i = 0; publishing || i < 200; i++) {
          const event = check(targets[i % targets.length].id, { status: i % 2 ? 'active' : 'inactive' });
          await monitor.publish(events.statusChecked, event, { msgId: event.eventId });
          sent.push(event);
          await new Promise((r) => setTimeout(r, 2));
        }
      })();

      await eventually(() => expect(sent.length).toBeGreaterThanOrEqual(50));
      await inventory.close(); // stops mid-stream; the monitor goes on publishing
      const whileStopped = sent.length;
      await eventually(() => expect(sent.length).toBeGreaterThanOrEqual(whileStopped + 50));
      inventory = await startInventory(namespace, env);
      publishing = false;
      await publisher;

      // Every event counted once, in whichever replica's counters.
      const counted = () =>
        sql<{ checks: number }>(
          inventory,
          `SELECT ((SELECT COALESCE(sum(hour_checks), 0) FROM inv.equipment_state)
                 + (SELECT COALESCE(sum(checks), 0) FROM inv.status_days))::int AS checks`,
        );
      // Waits for all of them, then checks none was counted twice.
      await eventually(
        async () => expect((await counted())[0].checks).toBeGreaterThanOrEqual(sent.length),
        30_000,
      );
      expect(await counted()).toEqual([{ checks: sent.length }]);
    } finally {
      await monitor.close();
      await inventory.close();
    }
  });
});
