// The uptime report's SQL with maintenance windows (issue 21): the report pages through every
// device 500 at a time, each page reckoning up and down time from the spans less the windows over
// each device (its own, its room's, its building's). Measured against the same pages reckoned
// without windows (the SQL before them) in the same run, on a campus seeded straight into a
// scratch schema: BENCH_DEVICES (10000) devices, 50 buildings of 20 rooms, 10 status spans each
// over the 30 days, then BENCH_WINDOWS (500) windows (1 % on buildings, 20 % on rooms, the rest on
// equipment) within the 30 days. Needs the inventory build (its `uptimeSecondsSql`); DATABASE_URL.
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { benchDatabase, root } from '../support/campus.mjs';

const require = createRequire(import.meta.url);
const { uptimeSecondsSql } = require(path.join(root, 'services/inventory/dist/status/reports/uptime.js'));
const { tablesOf } = require(path.join(root, 'services/inventory/dist/shared/database/sql.js'));

const DEVICES = Number(process.env.BENCH_DEVICES ?? 10_000);
const WINDOWS = Number(process.env.BENCH_WINDOWS ?? 500);
const REPEAT = 5;
const PAGE = 500;

const schema = `bench_mw_${randomBytes(3).toString('hex')}`;
const t = tablesOf({ options: { schema } });
const s = t.schema;

const page = (uptime) => `
  SELECT e.id, COALESCE(u.up, 0)::float8 AS up, COALESCE(u.down, 0)::float8 AS down
    FROM ${t.equipment} e
    JOIN ${t.rooms} r ON r.id = e.room_id
    JOIN ${t.buildings} b ON b.id = r.building_id
    LEFT JOIN LATERAL (${uptime}) u ON true
   WHERE $3::uuid IS NULL OR e.id > $3::uuid
   ORDER BY e.id
   LIMIT ${PAGE}`;
/** The report's reckoning before maintenance windows: the reference. */
const withoutWindows = page(`
  SELECT sum(EXTRACT(EPOCH FROM LEAST(COALESCE(s.ended_at, $2), $2) - GREATEST(s.started_at, $1)))
           FILTER (WHERE s.status = 'active') AS up,
         sum(EXTRACT(EPOCH FROM LEAST(COALESCE(s.ended_at, $2), $2) - GREATEST(s.started_at, $1)))
           FILTER (WHERE s.status IN ('inactive', 'partial')) AS down
    FROM ${t.spans} s
   WHERE s.equipment_id = e.id AND s.started_at < $2 AND (s.ended_at IS NULL OR s.ended_at > $1)`);
/** The report's reckoning now (inventory's `uptimePage`). */
const withWindows = page(uptimeSecondsSql(t, 'e.id', '$1', '$2', { room: 'r.id', building: 'b.id' }));

async function seed(db) {
  const perRoom = Math.max(1, Math.round(DEVICES / 1000));
  await db.query(`CREATE SCHEMA ${s}`);
  await db.query(`
    CREATE TABLE ${t.buildings} (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), name text);
    CREATE TABLE ${t.rooms} (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), building_id uuid NOT NULL, name text);
    CREATE TABLE ${t.equipment} (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), room_id uuid NOT NULL, name text);
    CREATE TABLE ${t.spans} (equipment_id uuid, started_at timestamptz, ended_at timestamptz, status text,
                             PRIMARY KEY (equipment_id, started_at));
    CREATE TABLE ${t.windows} (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), building_id uuid, room_id uuid,
                               equipment_id uuid, starts_at timestamptz NOT NULL, ends_at timestamptz NOT NULL);
    CREATE INDEX ON ${t.windows} (building_id, starts_at) WHERE building_id IS NOT NULL;
    CREATE INDEX ON ${t.windows} (room_id, starts_at) WHERE room_id IS NOT NULL;
    CREATE INDEX ON ${t.windows} (equipment_id, starts_at) WHERE equipment_id IS NOT NULL;
    INSERT INTO ${t.buildings} (name) SELECT 'B' || g FROM generate_series(1, 50) g;
    INSERT INTO ${t.rooms} (building_id, name) SELECT b.id, 'R' || g FROM ${t.buildings} b, generate_series(1, 20) g;
    INSERT INTO ${t.equipment} (room_id, name) SELECT r.id, 'E' || g FROM ${t.rooms} r, generate_series(1, ${perRoom}) g;
    INSERT INTO ${t.spans} (equipment_id, started_at, ended_at, status)
    SELECT e.id, now() - interval '31 days' + g * interval '3 days',
           CASE WHEN g = 9 THEN NULL ELSE now() - interval '31 days' + (g + 1) * interval '3 days' END,
           CASE WHEN g % 2 = 0 THEN 'active' ELSE 'inactive' END
      FROM ${t.equipment} e, generate_series(0, 9) g;
    ANALYZE;`);
}

async function addWindows(db) {
  const buildings = Math.max(1, Math.round(WINDOWS * 0.01));
  const rooms = Math.round(WINDOWS * 0.2);
  const equipment = WINDOWS - buildings - rooms;
  const day = (n) => `now() - interval '${n} days'`;
  await db.query(`
    INSERT INTO ${t.windows} (building_id, starts_at, ends_at) SELECT id, ${day(10)}, ${day(9)} FROM ${t.buildings} LIMIT ${buildings};
    INSERT INTO ${t.windows} (room_id, starts_at, ends_at) SELECT id, ${day(20)}, ${day(19)} FROM ${t.rooms} LIMIT ${rooms};
    INSERT INTO ${t.windows} (equipment_id, starts_at, ends_at) SELECT id, ${day(5)}, ${day(4)} FROM ${t.equipment} LIMIT ${equipment};
    ANALYZE;`);
}

/** Every page of the report, REPEAT times: the median ms and the hours reckoned. */
async function report(db, sql) {
  const to = new Date();
  const from = new Date(to.getTime() - 720 * 3_600_000);
  const runs = [];
  let hours = 0;
  for (let i = 0; i < REPEAT; i++) {
    const started = performance.now();
    let after = null;
    hours = 0;
    for (;;) {
      const { rows } = await db.query(sql, [from, to, after]);
      for (const row of rows) hours += (row.up + row.down) / 3600;
      if (rows.length < PAGE) break;
      after = rows.at(-1).id;
    }
    runs.push(performance.now() - started);
  }
  runs.sort((a, b) => a - b);
  return { ms: Math.round(runs[Math.floor(REPEAT / 2)]), hours: Math.round(hours) };
}

const db = await benchDatabase({ statement_timeout: 120_000 });
await db.connect();
try {
  await seed(db);
  const { rows } = await db.query(`SELECT count(*)::int AS n FROM ${t.equipment}`);
  console.log(
    `${rows[0].n} devices, ${rows[0].n * 10} spans; every report page of ${PAGE}, median of ${REPEAT}`,
  );
  await report(db, withWindows); // warm-up
  const reference = await report(db, withoutWindows);
  const none = await report(db, withWindows);
  await addWindows(db);
  const some = await report(db, withWindows);
  const ratio = (x) => (x.ms / reference.ms).toFixed(2);
  console.log(`reference (the SQL before windows): ${reference.ms} ms, ${reference.hours} h reckoned`);
  console.log(`no window:             ${none.ms} ms (${ratio(none)}×), ${none.hours} h`);
  console.log(`${WINDOWS} windows:           ${some.ms} ms (${ratio(some)}×), ${some.hours} h`);
} finally {
  await db.query(`DROP SCHEMA IF EXISTS ${s} CASCADE`).catch(() => {});
  await db.end();
}
