// Device health probes beside the ping sweep, on the real stack (issue 36): 10,000 simulated PJLink
// projectors and 10,000 SNMP agents probed every 5 minutes by one monitor replica while it pings
// 50,000 devices every 30 s (the 20,000 among them). Starts the devices in two child processes (their
// CPU is not the monitor's), the system in a fresh namespace, seeds the fleet with bulk SQL, and runs
// two phases of monitoring of the same length: the reference, ping sweeps alone (every probe ICMP),
// then the same with the PJLink and SNMP probes set. Removes the namespace (schemas, streams, KV
// buckets) and ends the device processes at the end, also on failure.
//
// Per phase: the monitor's CPU (probe CPU = probe phase − reference, in % of one core) and resident
// memory (sampled each second, and its peak); each status message's commit lag (stored on STATUS →
// inventory's ack floor reaching it), and per sweep its last message's; each probe reading's (its
// checkedAt, when the probe answered → its HEALTH batch acknowledged, after inventory's commit).
//
// Needs root (raw ICMP, SNMP agents on port 161); loopback only: pings 127.10.x.y (ping-only),
// 127.20.x.y (PJLink, port 4352) and 127.30.x.y (SNMP). Environment variables: BENCH_PING_DEVICES
// (50000: every device, probed ones included), BENCH_PROBE_DEVICES (10000 of each protocol),
// BENCH_PHASE_S (300: each phase's measured window; at least the probe interval to see every
// device once), BENCH_WARMUP_S (60: monitoring runs this long before each window),
// BENCH_PROBE_INTERVAL_S (300), BENCH_MONITOR_NODE_OPTIONS (the chart's heap for its default 256Mi
// limit: `--max-old-space-size=128 --max-semi-space-size=1`; `none`: Node's defaults),
// BENCH_CHART_LIMIT_MIB (256, the chart's default monitor memory limit), DATABASE_URL, NATS_URL.
// A quick run: BENCH_PING_DEVICES=5000 BENCH_PROBE_DEVICES=1000 BENCH_PHASE_S=60 BENCH_WARMUP_S=20
// BENCH_PROBE_INTERVAL_S=60.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  benchDatabase,
  buildServices,
  root,
  runBench,
  signIn,
  NATS_URL,
  stackEnv,
  tearDown,
} from '../support/campus.mjs';
import { cpuMs, loadAverage, resetPeakMemory, round, waitFor } from '../support/measure.mjs';
import { followStream, pollAckFloor, scrapeMetrics, watchProcess } from './observe.mjs';
import { briefOf, printSummary, summarizePhase } from './results.mjs';
import { MAX_PER_KIND } from './layout.mjs';
import { enableProbes, seedFleet } from './seed.mjs';

const require = createRequire(import.meta.url);
const { connect } = require('nats');
const { startStack } = require(path.join(root, 'scripts/stack.cjs'));

const env = process.env;
const PING_DEVICES = Number(env.BENCH_PING_DEVICES ?? 50_000);
const PROBE_DEVICES = Number(env.BENCH_PROBE_DEVICES ?? 10_000);
const PHASE_S = Number(env.BENCH_PHASE_S ?? 300);
const WARMUP_S = Number(env.BENCH_WARMUP_S ?? 60);
const INTERVAL_S = Number(env.BENCH_PROBE_INTERVAL_S ?? 300);
const NODE_OPTIONS = env.BENCH_MONITOR_NODE_OPTIONS ?? '--max-old-space-size=128 --max-semi-space-size=1';
const CHART_LIMIT_MIB = Number(env.BENCH_CHART_LIMIT_MIB ?? 256);

const namespace = `bench_${randomBytes(4).toString('hex')}`;
const schema = `"${namespace}_inventory"`;
const adminPassword = randomBytes(12).toString('base64url');
const secretKey = randomBytes(32);
const t0 = performance.now();
const log = (msg) => console.log(`[${((performance.now() - t0) / 1000).toFixed(0).padStart(4)} s] ${msg}`);

/** A child process of simulated devices; resolves once every one listens. */
function startDevices(kind, count) {
  const child = spawn(process.execPath, [path.join(root, 'bench/probes/devices.mjs'), kind, String(count)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const ready = new Promise((resolve, reject) => {
    child.once('exit', (code, signal) => reject(new Error(`The ${kind} devices ended (${code ?? signal})`)));
    createInterface({ input: child.stdout }).once('line', (line) => resolve(JSON.parse(line)));
  });
  return { child, ready };
}

/** The equipment outbox relayed and the monitor's equipment consumer caught up. */
async function waitForRelay(db, jsm) {
  await waitFor(
    'the equipment outbox to empty',
    async () => (await db.query(`SELECT count(*)::int AS n FROM ${schema}.equipment_events`)).rows[0].n === 0,
    { timeoutMs: 400_000 },
  );
  await waitFor(
    'the monitor to read every equipment change',
    async () => {
      const consumers = await jsm.consumers.list(`${namespace}_EQUIPMENT`).next();
      return consumers.length > 0 && consumers.every((c) => c.num_pending === 0 && c.num_ack_pending === 0);
    },
    { timeoutMs: 60_000, everyMs: 250 },
  );
}

function monitoring(url, cookie) {
  return async (what) => {
    const res = await globalThis.fetch(`${url}/api/monitoring/${what}`, {
      method: 'POST',
      headers: { cookie },
      signal: globalThis.AbortSignal.timeout(30_000),
    });
    if (!res.ok) throw new Error(`POST /api/monitoring/${what} answered ${res.status}: ${await res.text()}`);
    return res.json();
  };
}

/**
 * Monitoring started, WARMUP_S, then PHASE_S measured; monitoring stopped and both streams drained.
 * Starting monitoring spreads each probe target's slots over its interval afresh.
 */
async function runPhase(ctx, label) {
  const { post, pids, metricsPort, streams } = ctx;
  resetPeakMemory(pids.monitor);
  await post('start');
  log(`${label}: monitoring started; ${WARMUP_S} s warm-up, then ${PHASE_S} s measured`);
  await sleep(WARMUP_S * 1000);
  const metricsBefore = await scrapeMetrics(metricsPort);
  const monitor = watchProcess(pids.monitor);
  const inventoryCpu = cpuMs(pids.inventory);
  const from = Date.now();
  await sleep(PHASE_S * 1000);
  const to = Date.now();
  const monitorStats = monitor.stop();
  const inventoryCpuMs = cpuMs(pids.inventory) - inventoryCpu;
  const metricsAfter = await scrapeMetrics(metricsPort);
  const load = loadAverage();
  await post('stop');
  // The sweep under way ends and the last readings are sent; then inventory commits what is left.
  await sleep(15_000);
  await waitFor(
    'inventory to drain the status and health streams',
    () => streams.every((s) => (s.acks.samples.at(-1)?.backlog ?? 0) === 0),
    { timeoutMs: 120_000, everyMs: 250 },
  );
  await sleep(500);
  const phase = summarizePhase({
    label,
    from,
    to,
    status: streams[0],
    health: streams[1],
    monitor: monitorStats,
    inventoryCpuMs,
    metricsBefore,
    metricsAfter,
    load,
  });
  log(`${label}: ${briefOf(phase)}`);
  return phase;
}

async function main() {
  if (process.getuid?.() !== 0)
    throw new Error('bench/probes needs root: raw ICMP and SNMP agents on port 161');
  if (PROBE_DEVICES * 2 > PING_DEVICES || PROBE_DEVICES > MAX_PER_KIND)
    throw new Error(
      'BENCH_PROBE_DEVICES of each protocol must fit twice in BENCH_PING_DEVICES (at most 50,000)',
    );
  log(`namespace ${namespace}; load average ${loadAverage()?.join(' ')}; building`);
  buildServices();
  const built = spawnSync('npx', ['nx', 'run', '@cm/simulators:build'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (built.status !== 0) throw new Error('Building the simulators failed');
  const results = {
    bench: 'probes',
    node: process.version,
    namespace,
    pingDevices: PING_DEVICES,
    probeDevicesEach: PROBE_DEVICES,
    phaseS: PHASE_S,
    warmupS: WARMUP_S,
    intervalS: INTERVAL_S,
    monitorNodeOptions: NODE_OPTIONS === 'none' ? null : NODE_OPTIONS,
    chartLimitMiB: CHART_LIMIT_MIB,
    loadAverageStart: loadAverage(),
  };
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cm-bench-'));
  const db = await benchDatabase();
  const devices = [startDevices('pjlink', PROBE_DEVICES), startDevices('snmp', PROBE_DEVICES)];
  let stack;
  let nc;
  const followers = [];
  try {
    results.devices = await Promise.all(devices.map((d) => d.ready));
    log(`devices listening: ${JSON.stringify(results.devices)}`);
    await db.connect();
    stack = await startStack({
      env: stackEnv(namespace, adminPassword, {
        MONITOR_ALLOWED_NETWORKS: '127.0.0.0/8',
        ALERTS_SECRET_KEY: secretKey.toString('base64'),
      }),
      port: 0,
      dataDir,
      serviceEnv: results.monitorNodeOptions
        ? { monitor: { NODE_OPTIONS: results.monitorNodeOptions } }
        : undefined,
      onLine: (service, line) => {
        if (/"level":(50|60)|error/i.test(line)) console.error(`${service}: ${line.slice(0, 400)}`);
      },
    });
    const pids = {
      monitor: stack.children.get('monitor').pid,
      inventory: stack.children.get('inventory').pid,
    };
    const metricsPort = stack.sidePorts.monitor.port;
    log(`stack up at ${stack.url}`);
    nc = await connect({ servers: NATS_URL, timeout: 5000 });
    const jsm = await nc.jetstreamManager({ timeout: 5000 });
    const js = nc.jetstream();
    const post = monitoring(stack.url, await signIn(stack.url, 'admin', adminPassword));

    let t = performance.now();
    const fleet = await seedFleet(db, schema, { count: PING_DEVICES, probes: PROBE_DEVICES });
    await waitForRelay(db, jsm);
    log(
      `seeded ${fleet.length} equipment; relay and monitor caught up in ${round((performance.now() - t) / 1000, 1)} s`,
    );

    const streams = [];
    for (const [name, durable, summarize] of [
      ['STATUS', 'inventory-status', (b) => ({ sweepId: b.sweepId, checks: b.checks.length })],
      [
        'HEALTH',
        'inventory-health',
        (b) => ({
          readings: b.readings.map((r) => [r.equipmentId, Date.parse(r.checkedAt), r.outcome, r.probeType]),
        }),
      ],
    ]) {
      const follower = await followStream(js, `${namespace}_${name}`, summarize);
      const acks = pollAckFloor(jsm, `${namespace}_${name}`, durable);
      followers.push(follower, acks);
      streams.push({ name, messages: follower.seen, acks });
    }
    const ctx = { db, post, pids, metricsPort, streams };

    results.reference = await runPhase(ctx, 'reference (ping sweeps alone)');

    t = performance.now();
    const probed = await enableProbes(db, schema, fleet, { key: secretKey, intervalSeconds: INTERVAL_S });
    await waitForRelay(db, jsm);
    await waitFor(
      `the monitor to load ${probed} probe targets`,
      async () => (await scrapeMetrics(metricsPort)).get('cm_monitor_probe_targets{share="all"}') === probed,
      { timeoutMs: 180_000, everyMs: 1000 },
    );
    log(
      `probes set on ${probed} equipment; the monitor holds them after ${round((performance.now() - t) / 1000, 1)} s`,
    );

    results.probes = await runPhase(ctx, 'probes (PJLink and SNMP beside the sweeps)');
    const counts = await db.query(
      `SELECT probe_type AS type, outcome, state, count(*)::int AS n FROM ${schema}.equipment_health GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
    );
    results.healthRows = counts.rows;
  } finally {
    for (const f of followers) await f.stop().catch(() => undefined);
    await nc?.close().catch(() => undefined);
    for (const d of devices) d.child.kill('SIGTERM');
    await tearDown({ stack, db, namespace, dataDir });
    log(`namespace ${namespace} removed, devices ended`);
    results.loadAverageEnd = loadAverage();
    results.totalS = round((performance.now() - t0) / 1000, 0);
    printSummary(results);
  }
}

runBench(main);
