// The status pipeline on the real stack: monitor sweeps → JetStream batch messages → inventory's
// durable consumer → one transaction per batch in PostgreSQL; and the uptime report over 30 days
// of status spans. Starts its own stack in a fresh namespace, seeds equipment with bulk SQL,
// runs Check Now back to back, and removes the namespace (schemas, streams, KV buckets) at the end,
// also on failure. References measured in the same run: COPY of N rows into an UNLOGGED table
// (the floor for writing a sweep's results), and the report's SQL run once over every device.
//
// Needs root (raw ICMP) and pings loopback only (127.10.0.1 … 127.19.x.y). Environment variables:
// BENCH_SIZES (10000,50000) devices for the pipeline, BENCH_SWEEPS (10) measured sweeps per size
// after one warm-up, BENCH_REPORT_SIZES (1000,10000,50000), BENCH_REPORT_REPEAT (10),
// BENCH_PACKET_GAP_MS (0.2, the monitor's default: at 0.5 a 50,000-device sweep lasts 25 s,
// longer than Check Now may wait), BENCH_ROLLOVER (1: one more sweep that begins a new hour, or day before hour counters), BENCH_BUDGET_S (1140: larger sizes are skipped, and said so,
// when the forecast does not fit), BENCH_MONITOR_NODE_OPTIONS (the monitor's NODE_OPTIONS, e.g. the
// chart's heap bound `--max-old-space-size=128` for its 256Mi limit; unset: Node's defaults),
// DATABASE_URL, NATS_URL.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Buffer } from 'node:buffer';
import { clearTimeout, setTimeout } from 'node:timers';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  benchDatabase,
  buildServices,
  removeNamespace,
  root,
  signIn,
  DATABASE_URL,
  NATS_URL,
  stackEnv,
} from '../support/campus.mjs';
import {
  backendCpu,
  backendCpuDelta,
  copyFloorMs,
  cpuMs,
  loadAverage,
  median,
  memoryMiB,
  percentile,
  resetPeakMemory,
  round,
  waitFor,
} from '../support/measure.mjs';

const require = createRequire(import.meta.url);
const { connect, JSONCodec } = require('nats');
const { startStack } = require(path.join(root, 'scripts/stack.cjs'));

const list = (value, fallback) =>
  (value ?? fallback)
    .split(',')
    .map((v) => Number(v.trim()))
    .filter((v) => v > 0);
const SIZES = list(process.env.BENCH_SIZES, '10000,50000');
const SWEEPS = Number(process.env.BENCH_SWEEPS ?? 10);
const REPORT_SIZES = list(process.env.BENCH_REPORT_SIZES, '1000,10000,50000');
const REPORT_REPEAT = Number(process.env.BENCH_REPORT_REPEAT ?? 10);
/** The monitor's default pacing, with which a 50,000-device sweep fits Check Now's wait. */
const PACKET_GAP_MS = process.env.BENCH_PACKET_GAP_MS ?? '0.2';
const MONITOR_NODE_OPTIONS = process.env.BENCH_MONITOR_NODE_OPTIONS;
/** Everything, build included, should end within about 20 minutes. */
const BUDGET_S = Number(process.env.BENCH_BUDGET_S ?? 1140);
/**
 * Start the measured sweeps from state rows as 32 sweeps leave them (their list of the newest 32
 * observation times full), not from rows fresh from the insert trigger: each of the first 32
 * sweeps makes a device's row longer, which is neither the steady state's size nor its cost.
 */
const PREFILL_RECENT = process.env.BENCH_PREFILL_RECENT !== '0';
/** One more sweep per size that begins a new hour (before the hour counters, a new day), measured apart (0: none). */
const ROLLOVER = process.env.BENCH_ROLLOVER !== '0';
/** Sweeps observed with monitoring started (the 30 s interval) at the largest size; 0: none. */
const SCHEDULED_SWEEPS = Number(process.env.BENCH_SCHEDULED_SWEEPS ?? 5);
const POLL_MS = 20;
/** Devices per second octet block: 5,000 per /16, so 10,000 devices span two /16s, 50,000 ten. */
const DEVICES_PER_16 = 5000;

const namespace = `bench_${randomBytes(4).toString('hex')}`;
const s = `"${namespace}_inventory"`;
const benchSchema = `"${namespace}_bench"`;
const STREAM = `${namespace}_STATUS`;
const DURABLE = 'inventory-status';
const SUBJECT = `${namespace}.monitor.status.checked`;
const adminPassword = randomBytes(12).toString('base64url');
const jc = JSONCodec();

const t0 = performance.now();
const elapsedS = () => (performance.now() - t0) / 1000;
const log = (msg) => console.log(`[${elapsedS().toFixed(0).padStart(4)} s] ${msg}`);
const ms = (v) => round(v, 1);

/** Service log lines (LOG_LEVEL=warn: warnings and errors), kept for the summary. */
const serviceLines = new Map();
function onLine(service, line) {
  const kept = serviceLines.get(service) ?? [];
  kept.push(line);
  if (kept.length > 500) kept.shift();
  serviceLines.set(service, kept);
}
const exits = [];

// ---------------------------------------------------------------------------------- seeding

/**
 * `count` devices numbered from `from`, 100 per building (10 rooms × 10), each with one loopback
 * address: device k is 127.(10 + k / 5000).((k % 5000) / 200).(k % 200 + 1).
 * With `quiet`, the equipment change events the insert queues for the monitor are removed in the
 * same transaction (the report needs no monitor, and 50,000 of them would keep the relay busy).
 */
async function addDevices(db, { from, count, tag, quiet = false }) {
  const buildings = Math.ceil(count / 100);
  await db.query('BEGIN');
  await db.query(
    `INSERT INTO ${s}.buildings (name, description)
     SELECT $1 || ' ' || lpad(g::text, 4, '0'), $1 FROM generate_series(1, $2::int) g`,
    [tag, buildings],
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
            '127.' || (10 + x.k / ${DEVICES_PER_16}) || '.' || ((x.k % ${DEVICES_PER_16}) / 200) || '.' || (x.k % 200 + 1)
       FROM (SELECT r.id, row_number() OVER (ORDER BY r.id) - 1 AS rn
               FROM ${s}.rooms r JOIN ${s}.buildings b ON b.id = r.building_id
              WHERE b.description = $1) r,
            generate_series(0, 9) e,
            LATERAL (SELECT $2::int + r.rn * 10 + e AS k) x
      WHERE x.k < $2::int + $3::int
     RETURNING id`,
    [tag, from, count],
  );
  if (quiet) {
    await db.query(`DELETE FROM ${s}.equipment_events WHERE equipment_id = ANY($1::uuid[])`, [
      rows.map((r) => r.id),
    ]);
  }
  await db.query('COMMIT');
  await db.query(
    `VACUUM ANALYZE ${s}.buildings, ${s}.rooms, ${s}.equipment, ${s}.equipment_state, ${s}.status_spans`,
  );
  return rows.map((r) => r.id);
}

/**
 * 30 days of history for the given devices, as the model would hold it: 90 % stable (0–2 status
 * changes in 30 days: 1–3 spans), 10 % flapping (2–5 changes a day); the first span began 31
 * days ago, the last one is open and mostly active (3 % end down). The equipment's state row
 * points at the open span, its status follows it, and every closed day has its counters
 * (2,880 checks, as at the 30 s interval). The spans the insert trigger opened are replaced.
 */
async function seedHistory(db, ids, now) {
  await db.query('BEGIN');
  await db.query(
    `CREATE TEMPORARY TABLE dev ON COMMIT DROP AS
     SELECT id,
            CASE WHEN random() < 0.10 THEN (30 * (2 + floor(random() * 4)))::int
                 ELSE floor(random() * 3)::int END AS changes,
            random() < 0.03 AS ends_down
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
            CASE WHEN ((count(*) OVER (PARTITION BY p.id) - row_number() OVER w) % 2 = 0) <> d.ends_down
                 THEN 'active' ELSE 'inactive' END
       FROM pts p JOIN dev d ON d.id = p.id
     WINDOW w AS (PARTITION BY p.id ORDER BY p.t)`,
  );
  await db.query(
    `UPDATE ${s}.equipment_state st
        SET span_started_at = sp.started_at, span_status = sp.status, status_at = sp.started_at,
            last_checked_at = x.at, last_rtt_ms = CASE WHEN sp.status = 'active' THEN 0.05 END,
            last_sweep_id = 'seed', recent = ARRAY[(extract(epoch FROM x.at) * 1000)::bigint], hour = date_trunc('hour', $1::timestamptz),
            hour_checks = 100, hour_answered = CASE WHEN sp.status = 'active' THEN 100 ELSE 0 END,
            hour_pings = 100, hour_pings_answered = CASE WHEN sp.status = 'active' THEN 100 ELSE 0 END,
            hour_rtt_min = 0.03, hour_rtt_max = 0.2, hour_rtt_sum = 5
       FROM ${s}.status_spans sp
       JOIN dev ON dev.id = sp.equipment_id,
            LATERAL (SELECT GREATEST(sp.started_at, date_trunc('milliseconds', $1::timestamptz - interval '15 seconds')) AS at) x
      WHERE st.equipment_id = sp.equipment_id AND sp.ended_at IS NULL`,
    [now],
  );
  await db.query(
    `UPDATE ${s}.equipment e SET status = st.span_status
       FROM ${s}.equipment_state st JOIN dev ON dev.id = st.equipment_id
      WHERE e.id = st.equipment_id AND e.status IS DISTINCT FROM st.span_status`,
  );
  const days = await db.query(
    `INSERT INTO ${s}.status_days (equipment_id, day, checks, answered, pings, pings_answered, rtt_min, rtt_max, rtt_sum)
     SELECT dev.id, d::date, 2880, CASE WHEN dev.changes > 2 THEN 2300 ELSE 2880 END, 2880,
            CASE WHEN dev.changes > 2 THEN 2300 ELSE 2880 END, 0.02, 0.4, 144
       FROM dev, generate_series(($1::timestamptz AT TIME ZONE 'UTC')::date - 30,
                                 ($1::timestamptz AT TIME ZONE 'UTC')::date - 1, interval '1 day') d`,
    [now],
  );
  await db.query('COMMIT');
  await db.query(`VACUUM ANALYZE ${s}.equipment, ${s}.equipment_state, ${s}.status_spans, ${s}.status_days`);
  return { spans: spans.rowCount, days: days.rowCount };
}

/** Row and update counters of the state table: are the per-check updates heap-only (HOT)? */
async function stateTableStats(db) {
  const { rows } = await db.query(
    `SELECT n_live_tup::int AS live, n_dead_tup::int AS dead, n_tup_upd::float8 AS updates,
            n_tup_hot_upd::float8 AS "hotUpdates", autovacuum_count::int AS autovacuums
       FROM pg_stat_user_tables WHERE schemaname = $1 AND relname = 'equipment_state'`,
    [`${namespace}_inventory`],
  );
  return rows[0];
}

/**
 * Every device's state as after 32 checks at the 30 s interval, the last one 30 s ago, all
 * active (the open span begins at the first of them); then VACUUM, as autovacuum would.
 */
async function prefillRecent(db, ids) {
  await db.query('BEGIN');
  await db.query(
    `CREATE TEMPORARY TABLE pre ON COMMIT DROP AS
     SELECT date_trunc('milliseconds', now()) - interval '30 seconds' * (33 - g) AS at FROM generate_series(1, 32) g`,
  );
  // One active span each (a device that missed a ping in the warm-up would have more).
  await db.query(
    `DELETE FROM ${s}.status_spans WHERE equipment_id = ANY($1::uuid[]) AND ended_at IS NOT NULL`,
    [ids],
  );
  await db.query(
    `UPDATE ${s}.equipment SET status = 'active' WHERE id = ANY($1::uuid[]) AND status <> 'active'`,
    [ids],
  );
  await db.query(
    `UPDATE ${s}.status_spans sp SET started_at = (SELECT min(at) FROM pre), status = 'active'
      WHERE sp.equipment_id = ANY($1::uuid[]) AND sp.ended_at IS NULL`,
    [ids],
  );
  await db.query(
    `UPDATE ${s}.equipment_state st
        SET recent = p.times, status_at = p.first, span_started_at = p.first, span_status = 'active',
            last_checked_at = p.last, last_rtt_ms = 0.05, last_sweep_id = 'prefill',
            hour = date_trunc('hour', p.last), hour_checks = 32, hour_answered = 32, hour_pings = 32,
            hour_pings_answered = 32, hour_rtt_min = 0.03, hour_rtt_max = 0.2, hour_rtt_sum = 1.6
       FROM (SELECT array_agg((extract(epoch FROM at) * 1000)::bigint ORDER BY at) AS times, min(at) AS first, max(at) AS last FROM pre) p
      WHERE st.equipment_id = ANY($1::uuid[])`,
    [ids],
  );
  await db.query('COMMIT');
  await db.query(`VACUUM ANALYZE ${s}.equipment_state, ${s}.status_spans`);
}

async function statusTableBytes(db) {
  const { rows } = await db.query(
    `SELECT pg_total_relation_size('${s}.equipment_state')::float8 AS state,
            pg_total_relation_size('${s}.status_spans')::float8 AS spans,
            pg_total_relation_size('${s}.status_days')::float8 AS days,
            COALESCE(pg_total_relation_size(to_regclass('${s}.status_hours')), 0)::float8 AS hours`,
  );
  const r = rows[0];
  return { ...r, total: r.state + r.spans + r.days + r.hours };
}

// ------------------------------------------------------------------------- status pipeline

/** Each status message as a core subscriber sees it: when, which sweep, how many checks. */
class StatusObserver {
  constructor(nc) {
    this.sweeps = new Map();
    this.order = [];
    this.sub = nc.subscribe(SUBJECT, {
      callback: (error, msg) => {
        const at = performance.now();
        if (error) return;
        let batch;
        try {
          batch = jc.decode(msg.data);
        } catch {
          return;
        }
        const checks = Array.isArray(batch.checks) ? batch.checks.length : 1;
        let sweep = this.sweeps.get(batch.sweepId);
        if (!sweep) {
          sweep = { id: batch.sweepId, messages: 0, checks: 0, firstAt: at, lastAt: at, waiters: [] };
          this.sweeps.set(batch.sweepId, sweep);
          this.order.push(batch.sweepId);
        }
        sweep.messages++;
        sweep.checks += checks;
        sweep.lastAt = at;
        for (const w of [...sweep.waiters]) w(sweep);
      },
    });
  }

  /** The first sweep seen after `index` messages' sweeps: the one a Check Now started. */
  sweepAfter(known) {
    return this.order.slice(known).map((id) => this.sweeps.get(id));
  }

  /** Resolves when the sweep has `checks` checks, or at `timeoutMs`. */
  waitChecks(sweep, checks, timeoutMs) {
    if (sweep.checks >= checks) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => done(false), timeoutMs);
      const waiter = (s) => s.checks >= checks && done(true);
      const done = (ok) => {
        clearTimeout(timer);
        sweep.waiters = sweep.waiters.filter((w) => w !== waiter);
        resolve(ok);
      };
      sweep.waiters.push(waiter);
    });
  }
}

async function checkNow(url, cookie) {
  const started = performance.now();
  const res = await globalThis.fetch(`${url}/api/monitoring/check`, {
    method: 'POST',
    headers: { cookie },
    signal: globalThis.AbortSignal.timeout(60_000),
  });
  const body = await res.json().catch(() => null);
  return { status: res.status, body, at: performance.now(), ms: performance.now() - started };
}

/** One Check Now, observed from its messages to inventory's acknowledgement of the last one. */
async function measureSweep(ctx, n) {
  const { jsm, db, observer, url, cookie } = ctx;
  const startInfo = await jsm.consumers.info(STREAM, DURABLE);
  const backlogAtStart = startInfo.num_pending + startInfo.num_ack_pending;
  const seqBefore = (await jsm.streams.info(STREAM)).state.last_seq;
  const known = observer.order.length;

  const consumer = pollConsumer(jsm, 180_000);
  const { samples } = consumer;

  const startedAt = performance.now();
  const answerP = checkNow(url, cookie);
  let sweep;
  try {
    sweep = await waitFor('the sweep’s first status message', () => observer.sweepAfter(known)[0], {
      timeoutMs: 60_000,
      everyMs: 10,
    });
    // Check Now answers only once inventory acknowledged the sweep's last message, so every message
    // has arrived by then; a 504 (the sweep goes on) leaves the rest to wait for.
    const first = await Promise.race([observer.waitChecks(sweep, n, 90_000), answerP.then(() => 'answer')]);
    const answer = await answerP;
    let all = first === true || sweep.checks >= n;
    if (!all) all = await observer.waitChecks(sweep, n, answer.status === 200 ? 500 : 90_000);
    // Check Now answered: are this sweep's results all in the database right now?
    const { rows } = await db.query(
      `SELECT count(*)::int AS n FROM ${s}.equipment_state WHERE last_sweep_id = $1`,
      [sweep.id],
    );
    const recordedAtAnswer = rows[0].n;
    const lastSeq = seqBefore + sweep.messages;
    const committed = await waitFor(
      'inventory to acknowledge the sweep',
      () => samples.find((x) => x.floor !== undefined && x.floor >= lastSeq),
      { timeoutMs: 150_000, everyMs: POLL_MS },
    );
    await consumer.stop();
    const streamLast = (await jsm.streams.info(STREAM)).state.last_seq;
    const afterPublish = samples.find((x) => x.at >= sweep.lastAt && x.backlog !== undefined);
    const maxBacklog = Math.max(...samples.filter((x) => x.backlog !== undefined).map((x) => x.backlog));
    return {
      sweepId: sweep.id,
      checks: sweep.checks,
      messages: sweep.messages,
      lastSeq,
      sequenceMatches: streamLast === lastSeq,
      streamLast,
      checkNowStatus: answer.status,
      checkNowMs: answer.ms,
      checkNowError: answer.status === 200 ? undefined : answer.body,
      allChecksSeen: all,
      monitorSweepMs: answer.body?.durationMs ?? null,
      targets: answer.body?.targets ?? null,
      firstMsgAfterStartMs: sweep.firstAt - startedAt,
      publishSpanMs: sweep.lastAt - sweep.firstAt,
      latencyMs: committed.at - sweep.lastAt,
      answerAfterCommitMs: answer.at - committed.at,
      recordedAtAnswer,
      backlogAtStart,
      backlogAfterPublish: afterPublish?.backlog ?? null,
      maxBacklog,
      redelivered: samples.at(-1)?.redelivered ?? null,
      pollErrors: samples.filter((x) => x.error).length,
    };
  } finally {
    await consumer.stop();
    await answerP.catch(() => undefined);
  }
}

async function pipelinePhase(ctx, n, previous) {
  const { db, jsm, stack } = ctx;
  const phase = {
    devices: n,
    added: n - previous,
    sweeps: [],
    mode: 'Check Now back to back (POST /api/monitoring/check)',
  };
  let t = performance.now();
  await addDevices(db, { from: previous, count: n - previous, tag: `Status ${n}` });
  phase.seedS = round((performance.now() - t) / 1000, 1);
  log(
    `seeded ${n - previous} devices (now ${n}) in ${phase.seedS} s; waiting for the relay to hand them to the monitor`,
  );

  t = performance.now();
  await waitFor(
    'the equipment outbox to empty',
    async () => (await db.query(`SELECT count(*)::int AS n FROM ${s}.equipment_events`)).rows[0].n === 0,
    { timeoutMs: 400_000, everyMs: 500 },
  );
  // The monitor follows the equipment stream with an ordered consumer of its own.
  await waitFor(
    'the monitor to read every equipment change',
    async () => {
      const consumers = await jsm.consumers.list(`${namespace}_EQUIPMENT`).next();
      return consumers.length > 0 && consumers.every((c) => c.num_pending === 0 && c.num_ack_pending === 0);
    },
    { timeoutMs: 60_000, everyMs: 250 },
  );
  phase.relayS = round((performance.now() - t) / 1000, 1);
  log(`relay and monitor caught up in ${phase.relayS} s`);
  // What the monitor holds with the list loaded and no sweep yet, and its peak while loading it;
  // from here its peak is that of the sweeps alone.
  const monitorPid = stack.children.get('monitor').pid;
  const loaded = memoryMiB(monitorPid);
  phase.monitorLoadedRssMiB = loaded?.rss ?? null;
  phase.monitorLoadPeakRssMiB = loaded?.peak ?? null;
  phase.monitorPeakReset = resetPeakMemory(monitorPid);
  log(
    `monitor with ${n} devices listed, before any sweep: ${loaded?.rss} MiB resident (${loaded?.peak} MiB at its peak while loading)`,
  );

  // Warm-up sweep (not counted): JIT, pools; and the monitor's list must hold every device.
  const warm = await waitFor(
    `a Check Now over ${n} targets`,
    async () => {
      const r = await measureSweep(ctx, n);
      log(
        `warm-up sweep: ${r.targets} targets, Check Now ${r.checkNowStatus} in ${Math.round(r.checkNowMs)} ms`,
      );
      // Every device checked (a 504 from Check Now still leaves its sweep to be observed).
      return r.checks === n ? r : null;
    },
    { timeoutMs: 120_000, everyMs: 1000 },
  );
  phase.warmUp = { latencyMs: ms(warm.latencyMs), checkNowMs: ms(warm.checkNowMs) };
  phase.statePrefilled = PREFILL_RECENT;
  if (PREFILL_RECENT) {
    // After the warm-up (which the new devices took part in), so that no sweep sees a half-done fill.
    const { rows } = await db.query(`SELECT equipment_id FROM ${s}.equipment_state`);
    await prefillRecent(
      db,
      rows.map((r) => r.equipment_id),
    );
    log(`state rows of all ${rows.length} devices set as after 32 checks (BENCH_PREFILL_RECENT=0 to skip)`);
  }

  const inventoryPid = stack.children.get('inventory').pid;
  const bytesBefore = await statusTableBytes(db);
  const statsBefore = await stateTableStats(db);
  const cpuBefore = { inventory: cpuMs(inventoryPid), monitor: cpuMs(monitorPid) };
  let pgCpu = 0;
  for (let i = 1; i <= SWEEPS; i++) {
    const pgBefore = await backendCpu(db, inventoryPid);
    const invBefore = cpuMs(inventoryPid);
    const r = await measureSweep(ctx, n);
    r.inventoryCpuMs = cpuMs(inventoryPid) - invBefore;
    r.postgresCpuMs = backendCpuDelta(pgBefore, await backendCpu(db, inventoryPid));
    pgCpu += r.postgresCpuMs;
    r.bytesAfter = (await statusTableBytes(db)).total;
    phase.sweeps.push(r);
    log(
      `N=${n} sweep ${i}/${SWEEPS}: monitor ${r.monitorSweepMs} ms, ${r.messages} msgs; last msg → commit ${ms(r.latencyMs)} ms; ` +
        `backlog start/after publish/max ${r.backlogAtStart}/${r.backlogAfterPublish}/${r.maxBacklog}; ` +
        `Check Now ${r.checkNowStatus} ${ms(r.answerAfterCommitMs)} ms after commit, ${r.recordedAtAnswer}/${n} recorded at answer; ` +
        `status tables ${round(r.bytesAfter / 1048576, 2)} MiB; CPU inventory ${Math.round(r.inventoryCpuMs)} ms, PostgreSQL ${Math.round(r.postgresCpuMs)} ms` +
        (r.sequenceMatches ? '' : `; SEQUENCE MISMATCH (stream ${r.streamLast}, computed ${r.lastSeq})`),
    );
  }
  const cpuAfter = { inventory: cpuMs(inventoryPid), monitor: cpuMs(monitorPid) };
  const monitorMemory = memoryMiB(monitorPid);
  const bytesAfter = await statusTableBytes(db);
  // The statistics collector reports with a delay of up to about half a second.
  await sleep(1000);
  const statsAfter = await stateTableStats(db);
  const updates = statsAfter.updates - statsBefore.updates;
  phase.stateUpdates = {
    updates,
    hotShare: round((statsAfter.hotUpdates - statsBefore.hotUpdates) / updates, 3),
    deadRowsAfter: statsAfter.dead,
    liveRows: statsAfter.live,
    autovacuums: statsAfter.autovacuums - statsBefore.autovacuums,
  };
  phase.bytesEachSweep = phase.sweeps.map((r) => r.bytesAfter);
  const checks = phase.sweeps.reduce((a, r) => a + r.checks, 0);
  const lat = phase.sweeps.map((r) => r.latencyMs).sort((a, b) => a - b);
  // Known only from a Check Now that answered 200.
  const sweepMs = phase.sweeps
    .filter((r) => r.monitorSweepMs !== null)
    .map((r) => r.monitorSweepMs)
    .sort((a, b) => a - b);
  const grown = bytesAfter.total - bytesBefore.total;
  phase.latencyP50Ms = ms(percentile(lat, 50));
  phase.latencyP99Ms = ms(percentile(lat, 99));
  phase.latencyMaxMs = ms(lat.at(-1));
  phase.monitorSweepP50Ms = sweepMs.length ? percentile(sweepMs, 50) : null;
  phase.monitorSweepMaxMs = sweepMs.at(-1) ?? null;
  phase.publishSpanP50Ms = ms(median(phase.sweeps.map((r) => r.publishSpanMs)));
  phase.checkNowP50Ms = ms(median(phase.sweeps.map((r) => r.checkNowMs)));
  phase.backlogAfterPublishMax = Math.max(...phase.sweeps.map((r) => r.backlogAfterPublish ?? 0));
  phase.backlogAtStartMax = Math.max(...phase.sweeps.map((r) => r.backlogAtStart));
  phase.backlogMax = Math.max(...phase.sweeps.map((r) => r.maxBacklog));
  phase.checks = checks;
  phase.bytesBefore = bytesBefore;
  phase.bytesAfter = bytesAfter;
  phase.bytesPerDevicePerSweep = round(grown / (n * SWEEPS), 2);
  phase.bytesPerDevicePerDay = Math.round((grown / (n * SWEEPS)) * 2880);
  phase.inventoryCpuMsPer1000 = round(((cpuAfter.inventory - cpuBefore.inventory) / checks) * 1000, 1);
  phase.postgresCpuMsPer1000 = round((pgCpu / checks) * 1000, 1);
  phase.monitorCpuMsPer1000 = round(((cpuAfter.monitor - cpuBefore.monitor) / checks) * 1000, 1);
  phase.monitorCpuMsPerSweep = Math.round((cpuAfter.monitor - cpuBefore.monitor) / SWEEPS);
  // After the sweeps: what the monitor holds, and the most it held during them (the warm-up one
  // included; since it started when its peak could not be reset).
  phase.monitorRssMiB = monitorMemory?.rss ?? null;
  phase.monitorPeakRssMiB = monitorMemory?.peak ?? null;
  phase.monitorSweepKiBPerDevice =
    monitorMemory && loaded ? round(((monitorMemory.peak - loaded.rss) * 1024) / n, 2) : null;
  // Definitive: the database did not hold every result of the sweep when Check Now said it did.
  phase.checkNowBeforeCommit = phase.sweeps.filter(
    (r) => r.checkNowStatus === 200 && r.recordedAtAnswer < n,
  ).length;
  phase.checkNowErrors = phase.sweeps.filter((r) => r.checkNowStatus !== 200).length;
  phase.answerAfterObservedCommitMs = {
    min: ms(Math.min(...phase.sweeps.map((r) => r.answerAfterCommitMs))),
    p50: ms(median(phase.sweeps.map((r) => r.answerAfterCommitMs))),
  };
  phase.sequenceMismatches = phase.sweeps.filter((r) => !r.sequenceMatches).length;
  phase.redelivered = phase.sweeps.at(-1).redelivered;
  if (ROLLOVER) {
    phase.rollover = await measureRollover(ctx, db, n, inventoryPid, 1);
    // Another hour of the same day: the first wrote each device's day row, this one adds to it,
    // as every later hour of a day does (the first hour of a day inserts it).
    phase.rolloverAgain = await measureRollover(ctx, db, n, inventoryPid, 2);
  }
  return phase;
}

/**
 * The sweep that begins a new period, once an hour (before the hour counters, once a day): every
 * device's counters of the one before are written out in the same batches, to status_hours and
 * status_days (before, to status_days). The state's period is moved back one first, so the next
 * sweep is that sweep.
 */
async function measureRollover(ctx, db, n, inventoryPid, back) {
  const { rows } = await db.query(`SELECT to_regclass('${s}.status_hours') IS NOT NULL AS hours`);
  await db.query(
    `UPDATE ${s}.equipment_state SET ${rows[0].hours ? `hour = hour - interval '${back} hours'` : `day = day - ${back}`}`,
  );
  await db.query(`VACUUM ${s}.equipment_state`);
  const pgBefore = await backendCpu(db, inventoryPid);
  const invBefore = cpuMs(inventoryPid);
  const r = await measureSweep(ctx, n);
  const out = {
    periods: rows[0].hours ? 'hour' : 'day',
    periodsBack: back,
    latencyMs: ms(r.latencyMs),
    backlogMax: r.maxBacklog,
    inventoryCpuMsPer1000: round(((cpuMs(inventoryPid) - invBefore) / r.checks) * 1000, 1),
    postgresCpuMsPer1000: round(
      (backendCpuDelta(pgBefore, await backendCpu(db, inventoryPid)) / r.checks) * 1000,
      1,
    ),
  };
  log(
    `N=${n} sweep beginning a new ${out.periods} (the state's moved ${back} back): last msg → commit ${out.latencyMs} ms; backlog max ${out.backlogMax}; ` +
      `CPU ms per 1000 checks: inventory ${out.inventoryCpuMsPer1000}, its PostgreSQL backends ${out.postgresCpuMsPer1000}`,
  );
  return out;
}

/**
 * Monitoring started (as in production: a sweep every 30 s that does not wait for inventory):
 * `count` sweeps observed as above, and the consumer's backlog when the next sweep begins.
 */
async function scheduledPhase(ctx, n, count) {
  const { jsm, observer, url, cookie, stack } = ctx;
  const intervalMs = 30_000;
  const consumer = pollConsumer(jsm, (count + 2) * intervalMs + 120_000);
  const { samples } = consumer;
  const inventoryPid = stack.children.get('inventory').pid;
  const cpuBefore = cpuMs(inventoryPid);
  const known = observer.order.length;
  let seq = (await jsm.streams.info(STREAM)).state.last_seq;
  const post = (what) =>
    globalThis
      .fetch(`${url}/api/monitoring/${what}`, {
        method: 'POST',
        headers: { cookie },
        signal: globalThis.AbortSignal.timeout(30_000),
      })
      .then(async (res) => {
        if (!res.ok)
          throw new Error(`POST /api/monitoring/${what} answered ${res.status}: ${await res.text()}`);
        return res.json();
      });
  const sweeps = [];
  try {
    const state = await post('start');
    log(
      `monitoring started (interval ${state.interval} ms); observing ${count} scheduled sweeps of ${n} devices`,
    );
    for (let i = 0; i < count; i++) {
      const sweep = await waitFor(`scheduled sweep ${i + 1}`, () => observer.sweepAfter(known)[i], {
        timeoutMs: intervalMs * 2 + 30_000,
        everyMs: 20,
      });
      const all = await observer.waitChecks(sweep, n, intervalMs * 2);
      // Sweeps do not overlap here (each is shorter than the interval): its messages follow the last one's.
      const lastSeq = seq + sweep.messages;
      seq = lastSeq;
      const committed = await waitFor(
        'inventory to acknowledge a scheduled sweep',
        () => samples.find((x) => x.floor !== undefined && x.floor >= lastSeq),
        { timeoutMs: 150_000, everyMs: POLL_MS },
      );
      const afterPublish = samples.find((x) => x.at >= sweep.lastAt && x.backlog !== undefined);
      sweeps.push({
        sweep,
        all,
        lastSeq,
        committedAt: committed.at,
        backlogAfterPublish: afterPublish?.backlog ?? null,
      });
    }
    // The backlog as the next sweep begins: the last sample before its first message.
    await waitFor('the sweep after the last one observed', () => observer.sweepAfter(known)[count], {
      timeoutMs: intervalMs * 2 + 30_000,
      everyMs: 50,
    }).catch(() => null);
  } finally {
    await post('stop').catch((error) => log(`stopping monitoring: ${error.message}`));
    await consumer.stop();
    // A sweep under way finishes: let inventory record it before anything else runs.
    const tail = observer.sweepAfter(known)[count];
    if (tail) await observer.waitChecks(tail, n, 60_000);
    await waitFor(
      'inventory to drain the status stream',
      async () => {
        const ci = await jsm.consumers.info(STREAM, DURABLE);
        return ci.num_pending + ci.num_ack_pending === 0;
      },
      { timeoutMs: 120_000, everyMs: 200 },
    ).catch((error) => log(error.message));
  }
  const cpu = cpuMs(inventoryPid) - cpuBefore;
  const next = observer.sweepAfter(known);
  const rows = sweeps.map((x, i) => {
    const following = next[i + 1];
    const atNext = following
      ? samples.filter((y) => y.backlog !== undefined && y.at < following.firstAt).at(-1)
      : undefined;
    return {
      sweepId: x.sweep.id,
      checks: x.sweep.checks,
      messages: x.sweep.messages,
      allChecksSeen: x.all,
      publishSpanMs: ms(x.sweep.lastAt - x.sweep.firstAt),
      latencyMs: ms(x.committedAt - x.sweep.lastAt),
      backlogAfterPublish: x.backlogAfterPublish,
      backlogAtNextStart: atNext?.backlog ?? null,
      startToStartMs: following ? ms(following.firstAt - x.sweep.firstAt) : null,
    };
  });
  for (const [i, r] of rows.entries()) {
    log(
      `scheduled sweep ${i + 1}/${count}: ${r.messages} msgs over ${r.publishSpanMs} ms; last msg → commit ${r.latencyMs} ms; ` +
        `backlog after publish ${r.backlogAfterPublish}, at next start ${r.backlogAtNextStart}`,
    );
  }
  const lat = rows.map((r) => r.latencyMs).sort((a, b) => a - b);
  return {
    devices: n,
    mode: 'monitoring started (POST /api/monitoring/start), default 30 s interval',
    sweeps: rows,
    latencyP50Ms: percentile(lat, 50),
    latencyP99Ms: percentile(lat, 99),
    backlogAfterPublishMax: Math.max(...rows.map((r) => r.backlogAfterPublish ?? 0)),
    backlogAtNextStartMax: Math.max(...rows.map((r) => r.backlogAtNextStart ?? 0)),
    inventoryCpuMsPer1000: round((cpu / rows.reduce((a, r) => a + r.checks, 0)) * 1000, 1),
  };
}

// ----------------------------------------------------------------------------------- report

async function timeGet(url, cookie, route) {
  const started = performance.now();
  const res = await globalThis.fetch(`${url}${route}`, {
    headers: { cookie },
    signal: globalThis.AbortSignal.timeout(300_000),
  });
  const text = await res.text();
  const took = performance.now() - started;
  if (!res.ok) throw new Error(`GET ${route} answered ${res.status}: ${text.slice(0, 300)}`);
  return { ms: took, text };
}

/** The report's query (inventory's `uptimePage`) over every device at once: the SQL floor. */
async function reportSqlMs(db) {
  const to = new Date();
  const from = new Date(to.getTime() - 720 * 3_600_000);
  const started = performance.now();
  const { rowCount } = await db.query(
    `SELECT e.id, b.id, b.name, r.id, r.name, e.name, e.type, e.ip_address, e.status,
            GREATEST(st.status_at, e.updated_at),
            COALESCE(u.up, 0)::float8, COALESCE(u.down, 0)::float8
       FROM ${s}.equipment e
       JOIN ${s}.rooms r ON r.id = e.room_id
       JOIN ${s}.buildings b ON b.id = r.building_id
       JOIN ${s}.equipment_state st ON st.equipment_id = e.id
       LEFT JOIN LATERAL (
         SELECT sum(EXTRACT(EPOCH FROM LEAST(COALESCE(s.ended_at, $2), $2) - GREATEST(s.started_at, $1)))
                  FILTER (WHERE s.status = 'active') AS up,
                sum(EXTRACT(EPOCH FROM LEAST(COALESCE(s.ended_at, $2), $2) - GREATEST(s.started_at, $1)))
                  FILTER (WHERE s.status IN ('inactive', 'partial')) AS down
           FROM ${s}.status_spans s
          WHERE s.equipment_id = e.id AND s.started_at < $2 AND (s.ended_at IS NULL OR s.ended_at > $1)
       ) u ON true
      ORDER BY e.id`,
    [from, to],
  );
  return { ms: performance.now() - started, rows: rowCount };
}

async function reportPhase(ctx, n, previous) {
  const { db, url, cookie } = ctx;
  let t = performance.now();
  const ids = await addDevices(db, { from: previous, count: n - previous, tag: `Report ${n}`, quiet: true });
  const seeded = await seedHistory(db, ids, new Date());
  const seedS = round((performance.now() - t) / 1000, 1);
  const { rows } = await db.query(
    `SELECT (SELECT count(*) FROM ${s}.equipment)::int AS devices, (SELECT count(*) FROM ${s}.status_spans)::int AS spans,
            (SELECT count(*) FROM ${s}.status_days)::int AS days,
            (SELECT count(*) FROM ${s}.equipment_state st JOIN ${s}.status_spans sp
                ON sp.equipment_id = st.equipment_id AND sp.started_at = st.span_started_at
               AND sp.ended_at IS NULL AND sp.status = st.span_status)::int AS consistent`,
  );
  const totals = rows[0];
  log(
    `report N=${totals.devices}: seeded ${ids.length} devices, ${seeded.spans} spans, ${seeded.days} day rows in ${seedS} s ` +
      `(${totals.spans} spans in all, ${round(totals.spans / totals.devices, 1)} per device; ${totals.consistent} state rows match their open span)`,
  );
  if (totals.devices !== n || totals.consistent !== n)
    throw new Error(`Report seed of ${n} devices is inconsistent`);

  const sql = [];
  for (let i = 0; i < 3; i++) sql.push(await reportSqlMs(db));
  const sizes = (
    await db.query(
      `SELECT pg_total_relation_size('${s}.status_spans')::float8 AS spans, pg_total_relation_size('${s}.status_days')::float8 AS days`,
    )
  ).rows[0];
  const result = {
    devices: n,
    spans: totals.spans,
    bytesPerSpan: Math.round(sizes.spans / totals.spans),
    bytesPerDayRow: Math.round(sizes.days / totals.days),
    spansPerDevice: round(totals.spans / n, 1),
    dayRows: totals.days,
    seedS,
    sqlFloorMs: ms(median(sql.map((x) => x.ms))),
  };
  for (const [name, route] of [
    ['summary', '/api/reports/uptime'],
    ['csv', '/api/reports/uptime.csv'],
  ]) {
    await timeGet(url, cookie, route); // warm-up
    const times = [];
    let last;
    for (let i = 0; i < REPORT_REPEAT; i++) {
      last = await timeGet(url, cookie, route);
      times.push(last.ms);
    }
    times.sort((a, b) => a - b);
    result[`${name}P50Ms`] = ms(percentile(times, 50));
    result[`${name}P99Ms`] = ms(percentile(times, 99));
    if (name === 'summary') {
      const body = JSON.parse(last.text);
      result.summaryBytes = Buffer.byteLength(last.text);
      result.summaryRows = body.equipment.length;
      if (body.totalEquipment !== n)
        throw new Error(`The report counts ${body.totalEquipment} equipment, not ${n}`);
    } else {
      result.csvBytes = Buffer.byteLength(last.text);
      result.csvRows = last.text.split('\n').filter((l) => l.length > 0).length - 1;
      if (result.csvRows !== n) result.csvRowsWrong = true;
    }
  }
  result.csvP50OverSql = round(result.csvP50Ms / result.sqlFloorMs, 1);
  log(
    `report N=${n}: summary p50/p99 ${result.summaryP50Ms}/${result.summaryP99Ms} ms; CSV p50/p99 ${result.csvP50Ms}/${result.csvP99Ms} ms, ` +
      `${result.csvBytes} bytes, ${result.csvRows} rows; the same SQL in one query ${result.sqlFloorMs} ms`,
  );
  return result;
}

// ------------------------------------------------------------------------------------- main

function serviceLogSummary() {
  const summary = {};
  for (const [service, lines] of serviceLines) {
    const levels = {};
    const samples = new Map();
    for (const line of lines) {
      let level = 'other';
      let msg = line;
      try {
        const j = JSON.parse(line);
        level =
          typeof j.level === 'number'
            ? j.level >= 50
              ? 'error'
              : j.level >= 40
                ? 'warn'
                : 'info'
            : String(j.level ?? 'other');
        msg = String(j.msg ?? j.message ?? line);
      } catch {
        // not JSON
      }
      levels[level] = (levels[level] ?? 0) + 1;
      const key = msg.replace(/[0-9a-f-]{8,}/g, '…').slice(0, 160);
      samples.set(key, (samples.get(key) ?? 0) + 1);
    }
    summary[service] = {
      lines: lines.length,
      levels,
      messages: Object.fromEntries([...samples].slice(0, 8)),
    };
  }
  return summary;
}

/**
 * Reads inventory's consumer every POLL_MS until stopped (or `forMs` passed): its ack floor (the
 * last message committed), backlog and redeliveries, each reading timestamped.
 */
function pollConsumer(jsm, forMs) {
  const samples = [];
  let polling = true;
  const loop = (async () => {
    const until = performance.now() + forMs;
    while (polling && performance.now() < until) {
      try {
        const ci = await jsm.consumers.info(STREAM, DURABLE);
        samples.push({
          at: performance.now(),
          floor: ci.ack_floor.stream_seq,
          backlog: ci.num_pending + ci.num_ack_pending,
          redelivered: ci.num_redelivered,
        });
      } catch (error) {
        samples.push({ at: performance.now(), error: String(error) });
      }
      await sleep(POLL_MS);
    }
  })();
  return {
    samples,
    stop: async () => {
      polling = false;
      await loop;
    },
  };
}

async function main() {
  log(`namespace ${namespace}; load average ${loadAverage()?.join(' ')}; building the services`);
  buildServices();
  log('built');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cm-bench-'));
  const env = stackEnv(namespace, adminPassword, {
    MONITOR_ALLOWED_NETWORKS: '127.0.0.0/8',
    MONITOR_PACKET_GAP_MS: PACKET_GAP_MS,
    MONITOR_CHECK_WAIT_MS: '25000',
  });
  const db = await benchDatabase();
  const results = {
    bench: 'status',
    node: process.version,
    namespace,
    packetGapMs: Number(PACKET_GAP_MS),
    monitorNodeOptions: MONITOR_NODE_OPTIONS ?? null,
    sweepsPerSize: SWEEPS,
    loadAverageStart: loadAverage(),
    copyFloor: {},
    pipeline: [],
    report: [],
    skipped: [],
  };
  let stack;
  let nc;
  try {
    await db.connect();
    // Every service: the gateway's readiness asks all of them, media included.
    stack = await startStack({
      env,
      port: 0,
      ephemeralPorts: true,
      dataDir,
      serviceEnv: MONITOR_NODE_OPTIONS ? { monitor: { NODE_OPTIONS: MONITOR_NODE_OPTIONS } } : undefined,
      onLine,
      onExit: (service, code, signal) => exits.push({ service, code, signal, atS: round(elapsedS(), 0) }),
    });
    log(`stack up at ${stack.url}`);
    nc = await connect({ servers: NATS_URL, timeout: 5000 });
    const jsm = await nc.jetstreamManager({ timeout: 5000 });
    const cookie = await signIn(stack.url, 'admin', adminPassword);
    const observer = new StatusObserver(nc);
    const ctx = { db, jsm, nc, observer, url: stack.url, cookie, stack };

    const copyFile = path.join(dataDir, 'copy.sql');
    for (const n of [...new Set([...SIZES, ...REPORT_SIZES])].sort((a, b) => a - b)) {
      const runs = [0, 1, 2].map(() =>
        copyFloorMs({ databaseUrl: DATABASE_URL, schema: benchSchema, rows: n, file: copyFile }),
      );
      results.copyFloor[n] = ms(median(runs));
      log(
        `reference: COPY ${n} rows into an UNLOGGED table: ${results.copyFloor[n]} ms (median of 3: ${runs.map(ms).join(', ')})`,
      );
    }

    // Part 1: the status pipeline.
    let previous = 0;
    for (const n of SIZES) {
      const spent = elapsedS();
      const last = results.pipeline.at(-1);
      // A rough forecast from the previous size: sweeps scale with N; keep ~4 minutes for the report.
      if (last) {
        const perSweepS = (last.checkNowP50Ms / 1000) * (n / last.devices);
        const forecast = (SWEEPS + 1) * perSweepS + (last.relayS / last.added) * (n - previous) + 30;
        if (spent + forecast > BUDGET_S - 240) {
          const why = `pipeline at N=${n} skipped: forecast ${Math.round(forecast)} s does not fit the ${BUDGET_S} s budget after ${Math.round(spent)} s`;
          log(why);
          results.skipped.push(why);
          continue;
        }
      }
      const phase = await pipelinePhase(ctx, n, previous);
      phase.copyFloorMs = results.copyFloor[n];
      phase.latencyP50OverCopy = round(phase.latencyP50Ms / phase.copyFloorMs, 1);
      phase.latencyP99OverCopy = round(phase.latencyP99Ms / phase.copyFloorMs, 1);
      results.pipeline.push(phase);
      previous = n;
      log(
        `N=${n}: last msg → commit p50 ${phase.latencyP50Ms} ms, p99 ${phase.latencyP99Ms} ms (${phase.latencyP50OverCopy}× / ${phase.latencyP99OverCopy}× COPY ${phase.copyFloorMs} ms); ` +
          `monitor sweep p50 ${phase.monitorSweepP50Ms} ms; ${phase.bytesPerDevicePerSweep} B/device/sweep (${phase.bytesPerDevicePerDay} B/device/day); ` +
          `CPU ms per 1000 checks: inventory ${phase.inventoryCpuMsPer1000}, its PostgreSQL backends ${phase.postgresCpuMsPer1000}, monitor ${phase.monitorCpuMsPer1000}`,
      );
    }

    const largest = results.pipeline.at(-1);
    if (largest && SCHEDULED_SWEEPS > 0) {
      const forecast = (SCHEDULED_SWEEPS + 1) * 30 + 30;
      if (elapsedS() + forecast > BUDGET_S - 180) {
        results.skipped.push(`scheduled sweeps skipped: ${Math.round(forecast)} s do not fit the budget`);
      } else {
        results.scheduled = await scheduledPhase(ctx, largest.devices, SCHEDULED_SWEEPS);
      }
    }

    // Part 2: the report. The pipeline's devices go (TRUNCATE: no change events, no monitor work).
    await db.query(`TRUNCATE ${s}.buildings, ${s}.equipment_events CASCADE`);
    previous = 0;
    for (const n of REPORT_SIZES) {
      const spent = elapsedS();
      const last = results.report.at(-1);
      if (last) {
        const forecast =
          (last.seedS + ((2 * REPORT_REPEAT + 2) * (last.csvP50Ms / 1000 + last.summaryP50Ms / 1000)) / 2) *
            (n / last.devices) +
          10;
        if (spent + forecast > BUDGET_S) {
          const why = `report at N=${n} skipped: forecast ${Math.round(forecast)} s does not fit the ${BUDGET_S} s budget after ${Math.round(spent)} s`;
          log(why);
          results.skipped.push(why);
          continue;
        }
      }
      results.report.push(await reportPhase(ctx, n, previous));
      previous = n;
    }
    const redeliveredTotal = (await jsm.consumers.info(STREAM, DURABLE)).num_redelivered;
    results.consumerRedelivered = redeliveredTotal;
  } finally {
    await nc?.close().catch(() => undefined);
    await stack?.stop();
    results.serviceLogs = serviceLogSummary();
    results.serviceExits = exits;
    await removeNamespace(db, NATS_URL, namespace).then(
      () => log(`namespace ${namespace} removed`),
      (error) => console.error(`cleanup: ${error.message}`),
    );
    await db.end().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
    results.loadAverageEnd = loadAverage();
    results.totalS = round(elapsedS(), 0);
    printSummary(results);
  }
}

function printSummary(r) {
  if (r.pipeline.length) {
    console.log(
      `\nStatus pipeline: ${r.sweepsPerSize} sweeps per size, Check Now back to back, packet gap ${r.packetGapMs} ms` +
        (r.monitorNodeOptions ? `, monitor NODE_OPTIONS ${r.monitorNodeOptions}` : ''),
    );
    console.log(
      '| devices | monitor sweep p50 ms | last msg → commit p50 ms | p99 ms | COPY floor ms | p50 ÷ COPY | p99 ÷ COPY | backlog after publish (max) | backlog at next start (max) | B/device/sweep | B/device/day | inventory CPU ms/1000 checks | PG backends CPU ms/1000 | monitor CPU ms/1000 | monitor CPU ms/sweep | monitor RSS listed / after sweeps / sweep peak MiB | sweep peak over listed, KiB/device |',
    );
    console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
    for (const p of r.pipeline) {
      console.log(
        `| ${p.devices} | ${p.monitorSweepP50Ms} | ${p.latencyP50Ms} | ${p.latencyP99Ms} | ${p.copyFloorMs} | ${p.latencyP50OverCopy} | ${p.latencyP99OverCopy} | ${p.backlogAfterPublishMax} | ${p.backlogAtStartMax} | ${p.bytesPerDevicePerSweep} | ${p.bytesPerDevicePerDay} | ${p.inventoryCpuMsPer1000} | ${p.postgresCpuMsPer1000} | ${p.monitorCpuMsPer1000} | ${p.monitorCpuMsPerSweep} | ${p.monitorLoadedRssMiB} / ${p.monitorRssMiB} / ${p.monitorPeakRssMiB} | ${p.monitorSweepKiBPerDevice} |`,
      );
    }
  }
  if (r.scheduled) {
    const x = r.scheduled;
    console.log(
      `\nScheduled (30 s interval), ${x.devices} devices, ${x.sweeps.length} sweeps: last msg → commit p50 ${x.latencyP50Ms} ms, p99 ${x.latencyP99Ms} ms; ` +
        `backlog after publish max ${x.backlogAfterPublishMax}, at next start max ${x.backlogAtNextStartMax}; inventory CPU ${x.inventoryCpuMsPer1000} ms per 1000 checks`,
    );
  }
  if (r.report.length) {
    console.log(`\nUptime report over 30 days of spans, ${REPORT_REPEAT} calls each after one warm-up`);
    console.log(
      '| devices | spans | summary p50 ms | p99 ms | CSV p50 ms | p99 ms | CSV bytes | CSV rows | report SQL in one query ms | CSV p50 ÷ SQL |',
    );
    console.log('|---|---|---|---|---|---|---|---|---|---|');
    for (const x of r.report) {
      console.log(
        `| ${x.devices} | ${x.spans} | ${x.summaryP50Ms} | ${x.summaryP99Ms} | ${x.csvP50Ms} | ${x.csvP99Ms} | ${x.csvBytes} | ${x.csvRows} | ${x.sqlFloorMs} | ${x.csvP50OverSql} |`,
      );
    }
  }
  for (const why of r.skipped) console.log(`SKIPPED: ${why}`);
  console.log(JSON.stringify(r));
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
