// The uptime CSV through the gateway, as a user downloads it (GET /api/reports/uptime.csv), against
// the report's own query run once over every device (inventory's `uptimeCsvSql`: the columns its
// lines show, unformatted, every row read by one client: the floor). Starts the whole system in a fresh namespace, seeds BENCH_SIZES
// (10000,50000) devices with 30 days of status spans (90 % stable, 10 % flapping), and per size
// times BENCH_REPEAT (5) downloads and queries, interleaved, on a quiet machine and then beside
// BENCH_HOGS (1) busy-loop processes (the CPU hog). Removes the namespace at the end, also on failure.
//
// BENCH_CPU_PROF_DIR writes a CPU profile of the gateway and inventory there.
// BENCH_SYSTEM_ROOT runs the system of another checkout (built) against the same floor query, for a
// before/after comparison; DATABASE_URL, NATS_URL.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  benchDatabase,
  buildServices,
  root,
  runBench,
  signIn,
  stackEnv,
  tearDown,
} from '../support/campus.mjs';
import { backendCpu, backendCpuDelta, cpuMs, loadAverage, median, round } from '../support/measure.mjs';

const require = createRequire(import.meta.url);
const SYSTEM_ROOT = path.resolve(process.env.BENCH_SYSTEM_ROOT ?? root);
const { startStack } = require(path.join(SYSTEM_ROOT, 'scripts/stack.cjs'));

const SIZES = (process.env.BENCH_SIZES ?? '10000,50000').split(',').map(Number).filter(Boolean);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 5);
const HOGS = Number(process.env.BENCH_HOGS ?? 1);
/** BENCH_CPU_PROF_DIR: a V8 CPU profile of the gateway and inventory (bench/support/profile-summary.mjs reads it). */
const PROFILE_DIR = process.env.BENCH_CPU_PROF_DIR;

const namespace = `bench_${randomBytes(4).toString('hex')}`;
const adminPassword = randomBytes(12).toString('base64url');
const s = `"${namespace}_inventory"`;
const t0 = performance.now();
const log = (msg) => console.log(`[${((performance.now() - t0) / 1000).toFixed(0).padStart(4)} s] ${msg}`);

/** `count` devices from number `from` on, 10 per room, 10 rooms per building, each with an address. */
async function addDevices(db, from, count) {
  const tag = `Bench ${from}`;
  await db.query('BEGIN');
  await db.query(
    `INSERT INTO ${s}.buildings (name, description)
     SELECT $1 || ' ' || lpad(g::text, 4, '0'), $1 FROM generate_series(1, $2::int) g`,
    [tag, Math.ceil(count / 100)],
  );
  await db.query(
    `INSERT INTO ${s}.rooms (building_id, name, type, floor, capacity)
     SELECT b.id, 'Room ' || lpad(r::text, 2, '0'), 'Classroom', '1', 30
       FROM ${s}.buildings b, generate_series(1, 10) r WHERE b.description = $1`,
    [tag],
  );
  const { rows } = await db.query(
    `INSERT INTO ${s}.equipment (room_id, name, model, type, ip_address)
     SELECT r.id, 'Device ' || x.k, 'Model S', 'Projector',
            '127.' || (10 + x.k / 5000) || '.' || ((x.k % 5000) / 200) || '.' || (x.k % 200 + 1)
       FROM (SELECT r.id, row_number() OVER (ORDER BY r.id) - 1 AS rn
               FROM ${s}.rooms r JOIN ${s}.buildings b ON b.id = r.building_id WHERE b.description = $1) r,
            generate_series(0, 9) e,
            LATERAL (SELECT $2::int + r.rn * 10 + e AS k) x
      WHERE x.k < $2::int + $3::int
     RETURNING id`,
    [tag, from, count],
  );
  const ids = rows.map((r) => r.id);
  // Nobody monitors them: the change events for the monitor go in the same transaction.
  await db.query(`DELETE FROM ${s}.equipment_events WHERE equipment_id = ANY($1::uuid[])`, [ids]);
  await db.query('COMMIT');
  return ids;
}

/**
 * 30 days of spans per device as the model holds them (bench/status's seed, without the day
 * counters the report does not read): 90 % stable (1–3 spans), 10 % flapping (2–5 changes a day).
 */
async function seedHistory(db, ids) {
  const now = new Date();
  await db.query('BEGIN');
  await db.query(
    `CREATE TEMPORARY TABLE dev ON COMMIT DROP AS
     SELECT id, CASE WHEN random() < 0.10 THEN (30 * (2 + floor(random() * 4)))::int
                     ELSE floor(random() * 3)::int END AS changes
       FROM unnest($1::uuid[]) id`,
    [ids],
  );
  await db.query(
    `CREATE TEMPORARY TABLE pts ON COMMIT DROP AS
     SELECT id, date_trunc('milliseconds', $1::timestamptz - interval '31 days') AS t FROM dev
     UNION
     SELECT d.id, date_trunc('milliseconds', $1::timestamptz - interval '30 days' * random())
       FROM dev d, generate_series(1, d.changes) g`,
    [now],
  );
  await db.query(`DELETE FROM ${s}.status_spans sp USING dev WHERE sp.equipment_id = dev.id`);
  const spans = await db.query(
    `INSERT INTO ${s}.status_spans (equipment_id, started_at, ended_at, status)
     SELECT p.id, p.t, lead(p.t) OVER w,
            CASE WHEN (count(*) OVER (PARTITION BY p.id) - row_number() OVER w) % 2 = 0
                 THEN 'active' ELSE 'inactive' END
       FROM pts p WINDOW w AS (PARTITION BY p.id ORDER BY p.t)`,
  );
  await db.query(
    `UPDATE ${s}.equipment_state st
        SET span_started_at = sp.started_at, span_status = sp.status, status_at = sp.started_at
       FROM ${s}.status_spans sp JOIN dev ON dev.id = sp.equipment_id
      WHERE st.equipment_id = sp.equipment_id AND sp.ended_at IS NULL`,
  );
  await db.query(
    `UPDATE ${s}.equipment e SET status = st.span_status
       FROM ${s}.equipment_state st JOIN dev ON dev.id = st.equipment_id
      WHERE e.id = st.equipment_id AND e.status IS DISTINCT FROM st.span_status`,
  );
  await db.query('COMMIT');
  await db.query(
    `VACUUM ANALYZE ${s}.buildings, ${s}.rooms, ${s}.equipment, ${s}.equipment_state, ${s}.status_spans`,
  );
  return spans.rowCount;
}

/** seedHistory, again after a deadlock with the service's own upkeep (history pruning). */
async function seedHistoryRetried(db, ids) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await seedHistory(db, ids);
    } catch (error) {
      await db.query('ROLLBACK').catch(() => undefined);
      if (error.code !== '40P01' || attempt === 3) throw error;
      log(`seeding met a deadlock; again (${attempt})`);
    }
  }
}

/** CPU ms so far of the gateway, inventory, inventory's PostgreSQL backends, and the floor's backend. */
async function cpuNow(ctx) {
  return {
    gateway: cpuMs(ctx.pids.gateway),
    inventory: cpuMs(ctx.pids.inventory),
    backends: await backendCpu(ctx.db, ctx.pids.inventory),
    floor: cpuMs(ctx.floorPid),
  };
}
const cpuSpent = (a, b) => ({
  gateway: b.gateway - a.gateway,
  inventory: b.inventory - a.inventory,
  backends: backendCpuDelta(a.backends, b.backends),
  floor: b.floor - a.floor,
});

/**
 * The report's query (the one inventory's COPY formats) run once, every row read: the floor. With
 * JIT off, as inventory runs it (compiling it costs more than it saves: docs/benchmarks.md).
 */
async function queryOnce(db, sql) {
  const to = new Date();
  const from = new Date(to.getTime() - 720 * 3_600_000);
  const started = performance.now();
  const { rowCount } = await db.query(sql, [from, to]);
  return { ms: performance.now() - started, rows: rowCount };
}

/** One download as a browser makes it: time to its first bytes and to its end, its rows. */
async function download(url, cookie) {
  const started = performance.now();
  const res = await globalThis.fetch(`${url}/api/reports/uptime.csv`, {
    headers: { cookie },
    signal: globalThis.AbortSignal.timeout(300_000),
  });
  if (!res.ok) throw new Error(`The CSV answered ${res.status}: ${await res.text()}`);
  let firstMs;
  let bytes = 0;
  let lines = 0;
  for await (const chunk of res.body) {
    firstMs ??= performance.now() - started;
    bytes += chunk.length;
    for (const byte of chunk) if (byte === 10) lines++;
  }
  return { ms: performance.now() - started, firstMs, bytes, rows: lines - 1 };
}

/** REPEAT downloads and queries, interleaved, after one of each to warm up: medians. */
async function measure(ctx, n, load) {
  await queryOnce(ctx.db, ctx.sql);
  await download(ctx.url, ctx.cookie);
  const sql = [];
  const csv = [];
  const cpu = [];
  for (let i = 0; i < REPEAT; i++) {
    let before = await cpuNow(ctx);
    sql.push(await queryOnce(ctx.db, ctx.sql));
    sql.at(-1).cpu = cpuSpent(before, await cpuNow(ctx)).floor;
    before = await cpuNow(ctx);
    csv.push(await download(ctx.url, ctx.cookie));
    cpu.push(cpuSpent(before, await cpuNow(ctx)));
  }
  const wrong = csv.find((c) => c.rows !== n) ?? sql.find((q) => q.rows !== n);
  if (wrong) throw new Error(`A report of ${n} devices had ${wrong.rows} rows`);
  const result = {
    devices: n,
    load,
    sqlMs: round(median(sql.map((x) => x.ms))),
    csvMs: round(median(csv.map((x) => x.ms))),
    csvMaxMs: round(Math.max(...csv.map((x) => x.ms))),
    firstBytesMs: round(median(csv.map((x) => x.firstMs))),
    bytes: csv[0].bytes,
    // CPU ms per download (medians): what each process of the path spends, against the query's backend.
    cpu: {
      queryBackend: round(median(sql.map((x) => x.cpu)), 0),
      backends: round(median(cpu.map((x) => x.backends)), 0),
      inventory: round(median(cpu.map((x) => x.inventory)), 0),
      gateway: round(median(cpu.map((x) => x.gateway)), 0),
    },
    loadAverage: loadAverage()?.[0],
  };
  result.ratio = round(result.csvMs / result.sqlMs, 2);
  log(
    `${n} devices, ${load}: CSV ${result.csvMs} ms (max ${result.csvMaxMs}, first bytes ${result.firstBytesMs}), ` +
      `query once ${result.sqlMs} ms: ${result.ratio}×; ${result.bytes} bytes; CPU ms ${JSON.stringify(result.cpu)}; load ${result.loadAverage}`,
  );
  return result;
}

/** Busy-loop processes beside the system, each taking a core while it runs. */
function startHogs(count) {
  const hogs = Array.from({ length: count }, () =>
    spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
  );
  return () => hogs.forEach((hog) => hog.kill('SIGKILL'));
}

async function main() {
  log(`namespace ${namespace}; system from ${SYSTEM_ROOT}; load average ${loadAverage()?.join(' ')}`);
  buildServices();
  const { uptimeCsvSql } = require(path.join(root, 'services/inventory/dist/status/reports/uptime.js'));
  const { tablesOf } = require(path.join(root, 'services/inventory/dist/shared/database/sql.js'));
  const sql = uptimeCsvSql(tablesOf({ options: { schema: `${namespace}_inventory` } }));
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cm-bench-'));
  const db = await benchDatabase({ statement_timeout: 300_000 });
  let stack;
  const results = [];
  try {
    await db.connect();
    await db.query('SET jit = off');
    stack = await startStack({
      env: stackEnv(namespace, adminPassword, { MONITOR_ALLOWED_NETWORKS: '127.0.0.0/8' }),
      port: 0,
      ephemeralPorts: true,
      dataDir,
      serviceEnv: PROFILE_DIR
        ? Object.fromEntries(
            ['gateway', 'inventory'].map((service) => [
              service,
              {
                NODE_OPTIONS: `--require ${path.join(root, 'bench/support/cpu-profile.cjs')}`,
                CPU_PROFILE_DIR: path.resolve(PROFILE_DIR),
                CPU_PROFILE_NAME: service,
              },
            ]),
          )
        : undefined,
    });
    const cookie = await signIn(stack.url, 'admin', adminPassword);
    const floorPid = (await db.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
    const pids = {
      gateway: stack.children.get('gateway').pid,
      inventory: stack.children.get('inventory').pid,
    };
    const ctx = { db, sql, url: stack.url, cookie, pids, floorPid };
    let previous = 0;
    for (const n of SIZES) {
      const started = performance.now();
      const ids = await addDevices(db, previous, n - previous);
      const spans = await seedHistoryRetried(db, ids);
      previous = n;
      log(
        `${n} devices: added ${ids.length} with ${spans} spans in ${round((performance.now() - started) / 1000)} s`,
      );
      results.push(await measure(ctx, n, 'quiet'));
      const stopHogs = startHogs(HOGS);
      try {
        results.push(await measure(ctx, n, `${HOGS} CPU hog${HOGS === 1 ? '' : 's'}`));
      } finally {
        stopHogs();
      }
    }
  } finally {
    await tearDown({ stack, db, namespace, dataDir });
  }
  console.log(`\nThe uptime CSV through the gateway against its query run once (medians of ${REPEAT})`);
  console.log(
    '| devices | load | CSV ms (max) | first bytes ms | query once ms | CSV ÷ query | CPU ms: query | path: PostgreSQL / inventory / gateway | load average |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const r of results) {
    const c = r.cpu;
    console.log(
      `| ${r.devices} | ${r.load} | ${r.csvMs} (${r.csvMaxMs}) | ${r.firstBytesMs} | ${r.sqlMs} | ${r.ratio} | ${c.queryBackend} | ${c.backends} / ${c.inventory} / ${c.gateway} | ${r.loadAverage} |`,
    );
  }
}

runBench(main);
