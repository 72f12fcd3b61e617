// Losing a NATS server: the whole system on a cluster of three NATS servers on loopback (JetStream,
// NATS_STREAM_REPLICAS=3, every service given all three URLs), monitoring one loopback address
// every 2 s, while 8 signed-in clients call GET /api/buildings (gateway → NATS → auth and inventory
// → PostgreSQL) one request after another. Each round SIGKILLs the server that leads the status
// stream, watches the API for BENCH_FAILOVER_WATCH_S (15) seconds and the status pipeline for up to
// a minute, then starts that server again and waits until its copy of the stream is current.
// Reports per round the failover gap (from the first request that failed or took over 1 s to the
// end of the last one), the longest time no request was answered successfully, the failed and slow
// requests, which services had a connection to the killed server, when the status stream had a new
// leader, and when a status was committed again. BENCH_FAILOVER_ROUNDS (6) rounds, every other one
// with the gateway's server made the leader first; BENCH_FAILOVER_VERBOSE=1 prints the services'
// warnings.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  benchDatabase,
  buildServices,
  root,
  runBench,
  signIn,
  stackEnv,
  tearDown,
} from '../support/campus.mjs';
import { round } from '../support/measure.mjs';

const require = createRequire(import.meta.url);
const { startStack } = require(path.join(root, 'scripts/stack.cjs'));

const ROUNDS = Number(process.env.BENCH_FAILOVER_ROUNDS ?? 6);
const WATCH_S = Number(process.env.BENCH_FAILOVER_WATCH_S ?? 15);
const VERBOSE = !!process.env.BENCH_FAILOVER_VERBOSE;
const CLIENTS = 8;
/** A request slower than this counts as stalled. */
const STALL_MS = 1000;

const namespace = `bench_${randomBytes(4).toString('hex')}`;
const adminPassword = randomBytes(12).toString('base64url');
const STATUS_STREAM = `${namespace}_STATUS`;

const now = () => performance.timeOrigin + performance.now();
const s = (ms) => round(ms / 1000, 2);

async function api(url, cookie, method, route, body) {
  const res = await fetch(`${url}${route}`, {
    method,
    headers: { cookie, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(30_000),
  });
  if (!res.ok) throw new Error(`${method} ${route} answered ${res.status}: ${await res.text()}`);
  return res.json();
}

/** Polls `check` every 100 ms until it answers true: the time it first did (epoch ms), or null. */
async function firstTime(check, timeoutMs) {
  const deadline = now() + timeoutMs;
  while (now() < deadline) {
    if (await check().catch(() => false)) return now();
    await sleep(100);
  }
  return null;
}

/** The services with a connection among these names (`inventory-jetstream@host:pid` → inventory). */
const servicesOf = (names) =>
  [...new Set(names.map((n) => /^(gateway|auth|inventory|media|monitor)/.exec(n)?.[1]).filter(Boolean))]
    .sort()
    .join(', ') || 'none';

/**
 * Kills the status stream's leader under load, then starts it again; answers the round's figures.
 * Even rounds first make the gateway's server the leader: the worst case, where the gateway's own
 * connection goes too.
 */
async function killLeader(n, { cluster, url, cookie, roomId, testing }) {
  if (n % 2 === 0) await cluster.makeLeader(STATUS_STREAM, await cluster.serverOf('gateway'));
  const leader = await cluster.leaderOf(STATUS_STREAM);
  const connections = await cluster.clientsOf(leader);
  const loop = testing.RequestLoop.start(`${url}/api/buildings`, { headers: { cookie }, clients: CLIENTS });
  await sleep(3000);
  const killedAt = now();
  await cluster.servers[leader].down('SIGKILL');
  // The API is watched for WATCH_S; the stream's new leader and the next status commit up to a minute.
  const [answers, newLeaderAt, committedAt] = await Promise.all([
    sleep(WATCH_S * 1000).then(() => loop.stop()),
    firstTime(async () => (await cluster.leaderOf(STATUS_STREAM)) !== leader, 60_000),
    firstTime(async () => {
      const [equipment] = await api(url, cookie, 'GET', `/api/rooms/${roomId}/equipment`);
      return Date.parse(equipment.lastCheckedAt) > killedAt;
    }, 60_000),
  ]);
  const outage = testing.outageOf(answers, STALL_MS);
  const result = {
    round: n,
    killed: `n${leader}`,
    gatewayOnIt: connections.includes('gateway'),
    servicesOnIt: servicesOf(connections),
    gapS: s(outage.troubleMs),
    silenceS: s(outage.longestSilenceMs),
    requests: outage.requests,
    failed: outage.failed.length,
    failedStatuses: [...new Set(outage.failed.map((a) => a.status))].join(', ') || '—',
    stalled: outage.stalled.length,
    slowestS: s(outage.slowestMs),
    newLeaderS: newLeaderAt === null ? null : s(newLeaderAt - killedAt),
    committedS: committedAt === null ? null : s(committedAt - killedAt),
  };
  console.log(JSON.stringify(result));
  for (const a of [...outage.failed, ...outage.stalled].slice(0, 6))
    console.log(
      `  sent ${s(a.startedAt - killedAt)} s after the kill, answered after ${s(a.endedAt - a.startedAt)} s: ${a.status} ${a.error ?? ''}`,
    );
  const restartedAt = now();
  await cluster.servers[leader].up();
  const caughtUpAt = await firstTime(() => cluster.allCopiesCurrent(STATUS_STREAM), 60_000);
  console.log(
    `  n${leader} started again; all copies current after ${caughtUpAt ? s(caughtUpAt - restartedAt) : '—'} s`,
  );
  return result;
}

async function main() {
  buildServices();
  const testing = require(path.join(root, 'libs/platform/dist/testing/index.js'));
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cm-bench-'));
  const db = await benchDatabase();
  await db.connect();
  let cluster;
  let stack;
  try {
    cluster = await testing.OwnNatsCluster.start(3);
    const env = stackEnv(namespace, adminPassword, {
      NATS_URL: cluster.url,
      NATS_STREAM_REPLICAS: '3',
      MONITOR_ALLOWED_NETWORKS: '127.0.0.0/8',
      MONITOR_INTERVAL_MS: '2000',
    });
    stack = await startStack({
      env,
      port: 0,
      ephemeralPorts: true,
      dataDir,
      onLine: (service, line) => VERBOSE && console.log(`  ${service} ${line.slice(0, 300)}`),
    });
    // Auth may answer before it has created the first administrator.
    let cookie;
    await firstTime(async () => !!(cookie = await signIn(stack.url, 'admin', adminPassword)), 30_000);
    cookie ??= await signIn(stack.url, 'admin', adminPassword);
    const building = await api(stack.url, cookie, 'POST', '/api/buildings', { name: 'Failover Hall' });
    const room = await api(stack.url, cookie, 'POST', `/api/buildings/${building.id}/rooms`, {
      name: '101',
      type: 'Classroom',
      floor: '1',
    });
    await api(stack.url, cookie, 'POST', `/api/rooms/${room.id}/equipment`, {
      roomId: room.id,
      name: 'Projector',
      ipAddress: '127.0.0.1',
    });
    await api(stack.url, cookie, 'POST', '/api/monitoring/start');
    const checked = await firstTime(
      async () => !!(await api(stack.url, cookie, 'GET', `/api/rooms/${room.id}/equipment`))[0].lastCheckedAt,
      60_000,
    );
    if (!checked) throw new Error('The monitor recorded no status within 60 s');
    const results = [];
    for (let n = 1; n <= ROUNDS; n++)
      results.push(await killLeader(n, { cluster, url: stack.url, cookie, roomId: room.id, testing }));

    console.log(
      `\n3 NATS servers (nats-server ${cluster.version}), NATS_STREAM_REPLICAS=3, ${CLIENTS} clients GET /api/buildings, the status stream's leader SIGKILLed; node ${process.version}, load average ${loadavg()[0].toFixed(1)}`,
    );
    console.log(
      '| round | killed | gateway client on it | services on it | gap s | no answer s | requests | failed (status) | > 1 s | slowest s | new stream leader s | status committed s |',
    );
    console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
    for (const r of results)
      console.log(
        `| ${r.round} | ${r.killed} | ${r.gatewayOnIt ? 'yes' : 'no'} | ${r.servicesOnIt} | ${r.gapS} | ${r.silenceS} | ${r.requests} | ${r.failed} (${r.failedStatuses}) | ${r.stalled} | ${r.slowestS} | ${r.newLeaderS ?? '—'} | ${r.committedS ?? '> 60'} |`,
      );
    console.log(
      `\nfailover gap (first failed or stalled request to the end of the last), worst round: ${Math.max(...results.map((r) => r.gapS))} s`,
    );
  } finally {
    await tearDown({ stack, db, namespace, dataDir });
    await cluster?.close();
  }
}

runBench(main);
