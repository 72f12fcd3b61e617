import { randomUUID } from 'node:crypto';
import { type Equipment, events, namespacedName, patterns, type StatusEvent, streams } from '@cm/contracts';
import { JetStreamConnection } from '@cm/platform';
import { testNatsUrl } from '@cm/platform/testing';
import { HistoryRetentionService } from '../src/status/history-retention.service';
import { STATUS_CONSUMER } from '../src/status/status-events.consumer';
import {
  dropNamespace,
  eventually,
  type Inventory,
  inventoryUnderTest,
  newNamespace,
  sql,
  startInventory,
} from './support';

const check = (equipmentId: string, over: Partial<StatusEvent> = {}): StatusEvent => ({
  eventId: randomUUID(),
  equipmentId,
  sweepId: randomUUID(),
  status: 'inactive',
  checkedAt: new Date().toISOString(),
  rttMs: null,
  results: [{ address: '127.0.0.1', alive: false, rttMs: null }],
  ...over,
});

/** The monitor's side: publishes status events into the namespace's stream. */
const monitorOf = (namespace: string) =>
  JetStreamConnection.connect({ namespace, servers: testNatsUrl, name: 'monitor-test', timeoutMs: 5000 });

const historyOf = (inventory: Inventory, equipmentId: string) =>
  sql<{ status: string; source: string; rtt: number | null; results: unknown; event: string | null }>(
    inventory,
    `SELECT status, source, rtt_ms AS rtt, results, event_id AS event
       FROM inv.equipment_status_history WHERE equipment_id = $1 ORDER BY checked_at, id`,
    [equipmentId],
  );

describe('inventory status events', () => {
  const inventory = inventoryUnderTest();
  const { make, send } = inventory;
  let monitor: JetStreamConnection;
  let equipment: Equipment;
  const publish = (event: StatusEvent, msgId = event.eventId) =>
    monitor.publish(events.statusChecked, event, { msgId });
  const current = () => send<Equipment[]>(patterns.inventory.listEquipment, { roomId: equipment.roomId });
  const consumerState = async () => {
    const info = await monitor.jsm.consumers.info(
      namespacedName(inventory.namespace, streams.status.name),
      STATUS_CONSUMER,
    );
    return { pending: info.num_pending, unacked: info.num_ack_pending, redelivered: info.num_redelivered };
  };

  beforeAll(async () => {
    monitor = await monitorOf(inventory.namespace);
  });
  afterAll(() => monitor?.close());
  beforeEach(async () => {
    const building = await make.building();
    const room = await make.room(building.id);
    equipment = await make.equipment(room.id, { ipAddress: '127.0.0.1-3' });
  });

  it('sets the status and appends the check to the history, with round trip and per-address results', async () => {
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
    const [after] = await eventually(current, ([e]) => e.status === 'partial');
    expect(after).toMatchObject({
      status: 'partial',
      lastCheckedAt: event.checkedAt.replace(/\.\d+Z$/, (z) => z),
    });
    expect(new Date(after.lastCheckedAt!).toISOString()).toBe(event.checkedAt);
    expect(await historyOf(inventory.sut, equipment.id)).toEqual([
      { status: 'active', source: 'manual', rtt: null, results: null, event: null },
      { status: 'partial', source: 'monitor', rtt: 0.4, results: event.results, event: event.eventId },
    ]);
  });

  it('persists an event delivered twice once', async () => {
    const event = check(equipment.id);
    // Two deliveries of one event: beyond the stream's de-duplication, as after a lost ack.
    await publish(event, `${event.eventId}-a`);
    await publish(event, `${event.eventId}-b`);
    await eventually(consumerState, (s) => s.pending === 0 && s.unacked === 0);
    const monitorRows = (await historyOf(inventory.sut, equipment.id)).filter((h) => h.source === 'monitor');
    expect(monitorRows).toHaveLength(1);
    expect((await current())[0].status).toBe('inactive');
  });

  it('keeps in the history, but does not apply, a check older than the current status', async () => {
    const newer = check(equipment.id, { status: 'inactive' });
    const older = check(equipment.id, {
      status: 'active',
      checkedAt: new Date(Date.parse(newer.checkedAt) - 60_000).toISOString(),
    });
    await publish(newer);
    await publish(older);
    await eventually(consumerState, (s) => s.pending === 0 && s.unacked === 0);
    expect((await current())[0].status).toBe('inactive');
    expect((await historyOf(inventory.sut, equipment.id)).map((h) => h.status)).toEqual([
      'active', // created
      'active', // the late check, in its place in time
      'inactive',
    ]);
  });

  it('does not apply a check made before a manual status change', async () => {
    const before = check(equipment.id, { checkedAt: new Date(Date.now() - 5000).toISOString() });
    await send(patterns.inventory.updateEquipment, {
      id: equipment.id,
      changes: { name: 'P', status: 'active' },
    });
    await send(patterns.inventory.updateEquipment, {
      id: equipment.id,
      changes: { name: 'P', status: 'partial' },
    });
    await publish(before);
    await eventually(consumerState, (s) => s.pending === 0 && s.unacked === 0);
    expect((await current())[0].status).toBe('partial');
  });

  it('leaves maintenance alone, which a person sets and a person ends', async () => {
    await send(patterns.inventory.updateEquipment, {
      id: equipment.id,
      changes: { name: 'P', status: 'maintenance' },
    });
    const later = check(equipment.id, { checkedAt: new Date(Date.now() + 1000).toISOString() });
    await publish(later);
    await eventually(consumerState, (s) => s.pending === 0 && s.unacked === 0);
    const [after] = await current();
    expect(after.status).toBe('maintenance');
    expect(new Date(after.lastCheckedAt!).toISOString()).toBe(later.checkedAt);
  });

  it('acknowledges and drops an event for equipment that no longer exists', async () => {
    const gone = check(randomUUID());
    await publish(gone);
    const state = await eventually(consumerState, (s) => s.pending === 0 && s.unacked === 0);
    expect(state).toMatchObject({ pending: 0, unacked: 0 });
    expect(
      await sql(inventory.sut, 'SELECT 1 FROM inv.equipment_status_history WHERE event_id = $1', [
        gone.eventId,
      ]),
    ).toEqual([]);
  });

  it('prunes history older than the retention (the report window and a day), and keeps the rest', async () => {
    await sql(
      inventory.sut,
      `INSERT INTO inv.equipment_status_history (equipment_id, status, checked_at, source)
       VALUES ($1, 'inactive', now() - interval '745 hours', 'monitor'), ($1, 'active', now() - interval '743 hours', 'monitor')`,
      [equipment.id],
    );
    await expect(inventory.sut.app.get(HistoryRetentionService).prune()).resolves.toBeGreaterThanOrEqual(1);
    expect((await historyOf(inventory.sut, equipment.id)).map((h) => h.status)).toEqual(['active', 'active']);
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
      const building = await inventory.rpc.send<{ id: string }>(patterns.inventory.createBuilding, {
        name: 'B',
      });
      const room = await inventory.rpc.send<{ id: string }>(patterns.inventory.createRoom, {
        buildingId: building.id,
        room: { name: '1', type: 'Office', floor: '1' },
      });
      const targets = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          inventory.rpc.send<Equipment>(patterns.inventory.createEquipment, {
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

      await eventually(
        async () => sent.length,
        (n) => n >= 50,
      );
      await inventory.close(); // stops mid-stream; the monitor goes on publishing
      const whileStopped = sent.length;
      await eventually(
        async () => sent.length,
        (n) => n >= whileStopped + 50,
      );
      inventory = await startInventory(namespace, env);
      publishing = false;
      await publisher;

      const stored = await eventually(
        () =>
          sql<{ n: number; distinct: number }>(
            inventory,
            `SELECT count(*)::int AS n, count(DISTINCT event_id)::int AS distinct
               FROM inv.equipment_status_history WHERE source = 'monitor'`,
          ),
        ([row]) => row.n >= sent.length,
        30_000,
      );
      expect(stored).toEqual([{ n: sent.length, distinct: sent.length }]);
      const ids = new Set(
        (
          await sql<{ id: string }>(
            inventory,
            `SELECT event_id AS id FROM inv.equipment_status_history WHERE source = 'monitor'`,
          )
        ).map((r) => r.id),
      );
      expect(sent.filter((e) => !ids.has(e.eventId))).toEqual([]);
    } finally {
      await monitor.close();
      await inventory.close();
    }
  });
});
