// The API under load: 50 signed-in clients (a session each) calling list and detail routes for
// 30 s, through the whole system (gateway → NATS → inventory and auth → PostgreSQL), then the same
// load against a single-process baseline that runs the same SQL directly (baseline-server.mjs).
// The ratio of the two is what the gateway, the NATS hops and the service framework cost. A third
// run, the two-process floor (floor-server.mjs), splits that ratio: what the process split itself
// costs, and what the frameworks and checks on top of it cost.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import {
  benchDatabase,
  buildServices,
  runBench,
  root,
  seedCampus,
  signIn,
  NATS_URL,
  stackEnv,
  startGatewayReplica,
  tearDown,
} from '../support/campus.mjs';
import { backendCpu, backendCpuDelta, cpuMs } from '../support/measure.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const autocannon = require('autocannon');
const { signOutToken } = require(path.join(root, 'libs/contracts'));
const { startStack, SERVICES } = require(path.join(root, 'scripts/stack.cjs'));

const BUILDINGS = 50;
const ROOMS_PER_BUILDING = 20;
const EQUIPMENT_PER_ROOM = 5;
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 30);
const CLIENTS = Number(process.env.BENCH_CONNECTIONS ?? 50);
/** When set, each service writes a V8 CPU profile (.cpuprofile) of its whole run into this folder. */
const PROFILE_DIR = process.env.BENCH_CPU_PROF_DIR;
/** BENCH_BASELINE=0 leaves out the single-process baseline (the floor is the goal's reference). */
const WITH_BASELINE = process.env.BENCH_BASELINE !== '0';
/**
 * BENCH_RATE: requests per second in all, sent at that rate whatever the answers (autocannon's
 * `overallRate`), instead of each client sending its next call when the last is answered. Every
 * target then gets the same arrivals, and CPU per request is compared at the same load.
 */
const RATE = Number(process.env.BENCH_RATE ?? 0);
/**
 * BENCH_GATEWAY_B: the `main.js` of another gateway build (say, a copy of main's
 * services/gateway/dist). After the system's run, a second gateway of that build joins the
 * system on a port of its own (a replica: same namespace, sessions and services), and the load
 * goes to one gateway and then the other, BENCH_PAIR_ROUNDS times BENCH_PAIR_S seconds each:
 * both builds measured in the same minutes, beside the same services, so that what else runs on
 * a shared machine weighs on both alike. Each gateway's CPU per request is its own.
 */
const GATEWAY_B = process.env.BENCH_GATEWAY_B;
const PAIR_ROUNDS = Number(process.env.BENCH_PAIR_ROUNDS ?? 6);
const PAIR_S = Number(process.env.BENCH_PAIR_S ?? 10);

const namespace = `bench_${randomBytes(4).toString('hex')}`;
const schema = `"${namespace}_inventory"`;
const adminPassword = randomBytes(12).toString('base64url');
const sessionSecret = randomBytes(32).toString('base64url');

async function seed(db) {
  await seedCampus(db, schema, {
    buildings: BUILDINGS,
    roomsPerBuilding: ROOMS_PER_BUILDING,
    equipmentPerRoom: EQUIPMENT_PER_ROOM,
  });
  const buildings = (await db.query(`SELECT id FROM ${schema}.buildings`)).rows.map((r) => r.id);
  const rooms = (await db.query(`SELECT id FROM ${schema}.rooms`)).rows.map((r) => r.id);
  return { buildings, rooms };
}

/**
 * Sessions one after another: sign-ins in flight at once count against the sign-in throttle.
 * Each client then holds the cookies a browser would after its first screen: the session's and
 * the sign-out token the first GET hands it (without it, every answer would set that cookie again).
 */
async function signInMany(url, n) {
  const cookies = [];
  for (let i = 0; i < n; i++) {
    const session = await signIn(url, 'admin', adminPassword);
    const first = await fetch(`${url}/api/buildings`, { headers: { cookie: session } });
    await first.arrayBuffer();
    const token = first.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .find((c) => c.startsWith(`${signOutToken.cookie}=`));
    cookies.push(token ? `${session}; ${token}` : session);
  }
  return cookies;
}

/** The mix each client repeats: two lists and two details, on random buildings and rooms. */
function calls({ buildings, rooms }) {
  const any = (list) => list[Math.floor(Math.random() * list.length)];
  return [
    { method: 'GET', path: '/api/buildings' },
    { method: 'GET', setupRequest: (req) => ({ ...req, path: `/api/buildings/${any(buildings)}` }) },
    { method: 'GET', setupRequest: (req) => ({ ...req, path: `/api/buildings/${any(buildings)}/rooms` }) },
    { method: 'GET', setupRequest: (req) => ({ ...req, path: `/api/rooms/${any(rooms)}` }) },
  ];
}

/**
 * `pids`: processes whose CPU time (user + system, from /proc) to divide by the requests served,
 * which contention on a shared machine does not inflate as it does latency.
 */
async function measure(name, url, cookies, ids, duration, pids = {}, db = undefined) {
  let next = 0;
  const cpuBefore = Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, cpuMs(pid)]));
  // PostgreSQL's share: the backends serving these processes' connections (not the whole server,
  // which other work on the machine uses too), and the load generator's own (this process).
  const backendsOf = async () => {
    const all = [];
    for (const pid of Object.values(pids)) all.push(await backendCpu(db, pid));
    return all;
  };
  const backendsBefore = db ? await backendsOf() : [];
  const loadBefore = process.cpuUsage();
  const result = await autocannon({
    url,
    connections: CLIENTS,
    duration,
    requests: calls(ids),
    ...(RATE > 0 && name !== 'warm-up' ? { overallRate: RATE } : {}),
    // Each connection is one signed-in client with a session of its own.
    setupClient: (client) => client.setHeaders({ cookie: cookies[next++ % cookies.length] }),
  });
  const load = process.cpuUsage(loadBefore);
  const perRequest = (ms) => Math.round((1000 * ms) / Math.max(1, result.requests.total));
  const cpuUsPerRequest = Object.fromEntries(
    Object.entries(pids).map(([k, pid]) => [k, perRequest(cpuMs(pid) - cpuBefore[k])]),
  );
  if (db) {
    const after = await backendsOf();
    cpuUsPerRequest.postgres = perRequest(
      after.reduce((sum, backends, i) => sum + backendCpuDelta(backendsBefore[i], backends), 0),
    );
  }
  cpuUsPerRequest['load generator'] = perRequest((load.user + load.system) / 1000);
  return {
    name,
    rps: result.requests.average,
    requests: result.requests.total,
    cpuUsPerRequest,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
    // What the errors were: autocannon's count per status code (and of timeouts and socket errors).
    failures: {
      ...Object.fromEntries(
        Object.entries(result.statusCodeStats ?? {}).filter(([code]) => !code.startsWith('2')),
      ),
      ...(result.timeouts ? { timeouts: result.timeouts } : {}),
      ...(result.errors ? { 'socket errors': result.errors } : {}),
    },
  };
}

/** Starts a reference server (a script here that prints `{ port, ... }` on its first line). */
function startReference(script, env) {
  const child = spawn(process.execPath, [path.join(here, script)], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`The baseline server exited with ${code}`)));
    readline.createInterface({ input: child.stdout }).once('line', (line) => {
      const ready = JSON.parse(line);
      resolve({ url: `http://127.0.0.1:${ready.port}`, child, ready });
    });
  });
}

/** Alternating runs on the stack's gateway (A) and the second (B): each one's requests and CPU summed. */
async function measurePair(a, b, cookies, ids) {
  const total = { A: { requests: 0, cpu: 0, rps: [] }, B: { requests: 0, cpu: 0, rps: [] } };
  await measure('warm-up', b.url, cookies, ids, 3);
  for (let round = 0; round < PAIR_ROUNDS; round++) {
    // A first in even rounds, B first in odd ones.
    for (const side of round % 2 ? ['B', 'A'] : ['A', 'B']) {
      const target = side === 'A' ? a : b;
      const before = cpuMs(target.pid);
      const r = await measure(`gateway ${side}`, target.url, cookies, ids, PAIR_S);
      total[side].cpu += cpuMs(target.pid) - before;
      total[side].requests += r.requests;
      total[side].rps.push(Math.round(r.rps));
      if (r.errors)
        throw new Error(`gateway ${side} failed ${r.errors} requests: ${JSON.stringify(r.failures)}`);
    }
  }
  const us = (side) => Math.round((1000 * total[side].cpu) / Math.max(1, total[side].requests));
  console.log(
    `\nGateways side by side (${PAIR_ROUNDS} rounds of ${PAIR_S} s each, alternating; B = ${GATEWAY_B}):`,
  );
  console.log(
    `gateway A (this build): ${us('A')} µs CPU per request over ${total.A.requests} requests, req/s by round ${total.A.rps.join(' ')}`,
  );
  console.log(
    `gateway B: ${us('B')} µs CPU per request over ${total.B.requests} requests, req/s by round ${total.B.rps.join(' ')}`,
  );
  console.log(
    `A ÷ B, CPU per request: ${(us('A') / us('B')).toFixed(3)} (load average ${loadavg()[0].toFixed(1)})`,
  );
}

function stop(reference) {
  reference.child.removeAllListeners('exit');
  reference.child.kill('SIGTERM');
}

async function main() {
  buildServices();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cm-bench-'));
  const env = stackEnv(namespace, adminPassword, {
    SESSION_SECRET: sessionSecret,
  });
  const db = await benchDatabase();
  let stack;
  let baseline;
  let floor;
  // Before the system starts: the cleanup below needs it even when the start fails (a query on a
  // client never connected waits forever, and the bench would end silently with exit code 0).
  await db.connect();
  try {
    const serviceEnv = PROFILE_DIR
      ? Object.fromEntries(
          SERVICES.map((service) => [
            service,
            {
              NODE_OPTIONS: `--require ${path.join(root, 'bench/support/cpu-profile.cjs')}`,
              CPU_PROFILE_DIR: path.resolve(PROFILE_DIR),
              CPU_PROFILE_NAME: service,
            },
          ]),
        )
      : {};
    stack = await startStack({ env, serviceEnv, port: 0, ephemeralPorts: true, dataDir });
    const ids = await seed(db);
    const cookies = await signInMany(stack.url, CLIENTS);
    // Warm-up: JIT, connection pools, PostgreSQL's caches.
    await measure('warm-up', stack.url, cookies, ids, 3);
    const system = await measure(
      'whole system (gateway → NATS → services)',
      stack.url,
      cookies,
      ids,
      DURATION_S,
      Object.fromEntries(['gateway', 'inventory', 'auth'].map((s) => [s, stack.children.get(s).pid])),
      db,
    );
    if (GATEWAY_B) {
      const b = await startGatewayReplica(path.resolve(GATEWAY_B), stack.children.get('gateway').pid);
      try {
        await measurePair(
          { url: stack.url, pid: stack.children.get('gateway').pid },
          { url: b.url, pid: b.child.pid },
          cookies,
          ids,
        );
      } finally {
        b.child.kill('SIGTERM');
      }
    }
    // The services stop before the references run, so each has the machine to itself.
    await stack.stop();
    stack = undefined;
    floor = await startReference('floor-server.mjs', { ...env, NATS_URL });
    await measure('warm-up', floor.url, cookies, ids, 3);
    const split = await measure(
      'two-process floor (node:http → NATS → pg)',
      floor.url,
      cookies,
      ids,
      DURATION_S,
      { front: floor.child.pid, query: floor.ready.queryPid },
      db,
    );
    stop(floor);
    floor = undefined;
    let single;
    if (WITH_BASELINE) {
      baseline = await startReference('baseline-server.mjs', env);
      await measure('warm-up', baseline.url, cookies, ids, 3);
      single = await measure(
        'single-process baseline (same SQL)',
        baseline.url,
        cookies,
        ids,
        DURATION_S,
        { baseline: baseline.child.pid },
        db,
      );
    }

    console.log(
      `\n${CLIENTS} signed-in clients, ${DURATION_S} s each, GET lists and details in turn, node ${process.version}`,
    );
    console.log('| target | req/s | p50 ms | p99 ms | errors |');
    console.log('|---|---|---|---|---|');
    for (const r of [system, split, single].filter(Boolean))
      console.log(
        `| ${r.name} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${r.errors}${r.errors ? ` ${JSON.stringify(r.failures)}` : ''} |`,
      );
    const cpu = (r) =>
      Object.entries(r.cpuUsPerRequest)
        .map(([k, us]) => `${k} ${us}`)
        .join(', ');
    console.log(
      `\nCPU µs per request: ${cpu(system)}; floor: ${cpu(split)}${single ? `; baseline: ${cpu(single)}` : ''} (load average ${loadavg()[0].toFixed(1)})`,
    );
    if (PROFILE_DIR)
      console.log(`\nProfiles in ${PROFILE_DIR}: ${system.requests} requests measured (plus the warm-up's).`);
    const ratio = (a, b) => (b > 0 ? (a / b).toFixed(2) : '—');
    if (single) {
      console.log(
        `\nthroughput system ÷ baseline: ${ratio(system.rps, single.rps)}; p50 system ÷ baseline: ${ratio(system.p50, single.p50)}; p99 system ÷ baseline: ${ratio(system.p99, single.p99)}`,
      );
      console.log(
        `floor ÷ baseline: throughput ${ratio(split.rps, single.rps)}, p99 ${ratio(split.p99, single.p99)}`,
      );
    }
    console.log(
      `system ÷ floor: throughput ${ratio(system.rps, split.rps)}, p99 ${ratio(system.p99, split.p99)}`,
    );
    if (system.errors || split.errors || single?.errors) process.exitCode = 1;
  } finally {
    for (const reference of [floor, baseline]) if (reference) stop(reference);
    await tearDown({ stack, db, namespace, dataDir });
  }
}

runBench(main);
