import { messages } from '@cm/contracts';
import { CreateInventory1732500000000 } from '../src/migrations/1732500000000-create-inventory';
import { dropNamespace, type Inventory, newNamespace, sql, startUpgraded } from './support';

const HOUR = 3_600_000;

/**
 * An installation from before status spans: the history holds a row per ping. Upgrading keeps
 * every equipment's uptime, its last check, and its counters.
 */
describe('inventory history migration', () => {
  const namespace = newNamespace();
  const asOf = new Date();
  const at = (hoursAgo: number) => new Date(asOf.getTime() - hoursAgo * HOUR);
  let inventory: Inventory;
  const ids = { flappy: '', quiet: '' };

  beforeAll(async () => {
    inventory = await startUpgraded(namespace, [CreateInventory1732500000000], async (old, s) => {
      const [b] = await old.query(`INSERT INTO ${s}.buildings (name) VALUES ('Old Hall') RETURNING id`);
      const [r] = await old.query(
        `INSERT INTO ${s}.rooms (building_id, name, type, floor) VALUES ($1, '1', 'Office', '1') RETURNING id`,
        [b.id],
      );
      const equipment = async (name: string, status: string) => {
        const [row] = await old.query(
          `INSERT INTO ${s}.equipment (room_id, name, ip_address, status, status_at, last_checked_at)
           VALUES ($1, $2, '127.0.0.1', $3, $4, $4) RETURNING id`,
          [r.id, name, status, at(1)],
        );
        return row.id as string;
      };
      ids.flappy = await equipment('Flappy', 'inactive');
      ids.quiet = await equipment('Quiet', 'active');
      const history = async (id: string, rows: [string, number, number | null, string][]) => {
        for (const [status, hoursAgo, rtt, source] of rows) {
          await old.query(
            `INSERT INTO ${s}.equipment_status_history (equipment_id, status, checked_at, rtt_ms, results, source, event_id)
             VALUES ($1, $2, $3, $4, $5, $6, $7)`,
            [
              id,
              status,
              at(hoursAgo),
              rtt,
              source === 'monitor'
                ? JSON.stringify([{ address: '127.0.0.1', alive: rtt !== null, rttMs: rtt }])
                : null,
              source,
              source === 'monitor' ? `${id}:sweep${hoursAgo}` : null,
            ],
          );
        }
      };
      // Every ping of the old model, repeats included: up 400 h, down 200 h, up 100 h, then down.
      await history(ids.flappy, [
        ['active', 800, null, 'manual'],
        ['active', 700, 0.5, 'monitor'],
        ['inactive', 400, null, 'monitor'],
        ['inactive', 300, null, 'monitor'],
        ['active', 200, 0.7, 'monitor'],
        ['active', 150, 0.3, 'monitor'],
        ['inactive', 100, null, 'monitor'],
        ['inactive', 1, null, 'monitor'],
      ]);
      await history(ids.quiet, [['active', 10, null, 'manual']]);
    });
  });
  afterAll(async () => {
    await inventory?.close();
    await dropNamespace(namespace);
  });

  it('keeps each equipment uptime over the report window', async () => {
    const page = await inventory.rpc.send(messages.inventory.report, {
      asOf: asOf.toISOString(),
    });
    const byName = Object.fromEntries(page.items.map((i) => [i.name, i]));
    // 720 h window: active 720→400 (320 h) and 200→100 (100 h); down 400→200 and 100→now.
    expect(byName.Flappy).toMatchObject({ uptimeHours: 420, downtimeHours: 300, uptimePercent: 58.3 });
    expect(byName.Quiet).toMatchObject({ uptimeHours: 10, downtimeHours: 0, uptimePercent: 100 });
  });

  it('stores runs of one status as spans, the last check on the equipment, and the counters by day', async () => {
    const spans = await sql<{ status: string; started: Date; ended: Date | null }>(
      inventory,
      `SELECT status, started_at AS started, ended_at AS ended FROM inv.status_spans
        WHERE equipment_id = $1 ORDER BY started_at`,
      [ids.flappy],
    );
    expect(spans.map((s) => [s.status, s.started, s.ended])).toEqual([
      ['active', at(800), at(400)],
      ['inactive', at(400), at(200)],
      ['active', at(200), at(100)],
      ['inactive', at(100), null],
    ]);
    const [days] = await sql<{ checks: number; answered: number; pings: number; answeredPings: number }>(
      inventory,
      `SELECT sum(checks)::int AS checks, sum(answered)::int AS answered, sum(pings)::int AS pings,
              sum(pings_answered)::int AS "answeredPings"
         FROM inv.status_days WHERE equipment_id = $1`,
      [ids.flappy],
    );
    expect(days).toEqual({ checks: 7, answered: 3, pings: 7, answeredPings: 3 });
    const listed = await inventory.rpc.send(messages.inventory.listEquipment, {
      roomId: (await sql<{ room: string }>(inventory, 'SELECT room_id AS room FROM inv.equipment LIMIT 1'))[0]
        .room,
    });
    expect(listed.find((e) => e.id === ids.flappy)).toMatchObject({
      status: 'inactive',
      lastCheckedAt: at(1).toISOString(),
      lastRttMs: null,
    });
    expect(await sql(inventory, `SELECT to_regclass('inv.equipment_status_history') AS old`)).toEqual([
      { old: null },
    ]);
  });
});
