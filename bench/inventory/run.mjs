// Inventory list latency through the gateway, on a campus of 200 buildings × 50 rooms × 10 equipment.
// Starts its own stack in a fresh namespace, seeds it with bulk SQL, measures with autocannon, and
// removes the namespace (schemas and streams) when done. Figures are also given as ratios to the
// gateway's own liveness route measured in the same run, so machines can be compared.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { TextEncoder } from 'node:util';
import {
  benchDatabase,
  buildServices,
  runBench,
  root,
  seedCampus,
  signIn,
  NATS_URL,
  stackEnv,
  tearDown,
} from '../support/campus.mjs';
import { percentile, round } from '../support/measure.mjs';

const require = createRequire(import.meta.url);
const autocannon = require('autocannon');
const { connect } = require('nats');
const { startStack } = require(path.join(root, 'scripts/stack.cjs'));

const BUILDINGS = 200;
const ROOMS_PER_BUILDING = 50;
const EQUIPMENT_PER_ROOM = 10;
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);

const namespace = `bench_${randomBytes(4).toString('hex')}`;
const schema = `"${namespace}_inventory"`;
const adminPassword = randomBytes(12).toString('base64url');

async function seed(db) {
  const started = performance.now();
  await seedCampus(db, schema, {
    buildings: BUILDINGS,
    roomsPerBuilding: ROOMS_PER_BUILDING,
    equipmentPerRoom: EQUIPMENT_PER_ROOM,
  });
  const { rows } = await db.query(
    `SELECT (SELECT count(*) FROM ${schema}.buildings)::int AS buildings, (SELECT count(*) FROM ${schema}.rooms)::int AS rooms,
            (SELECT count(*) FROM ${schema}.equipment)::int AS equipment`,
  );
  return { ...rows[0], seconds: (performance.now() - started) / 1000 };
}

async function measure(name, url, cookie) {
  // Warm-up: JIT, connection pools, PostgreSQL's caches.
  await autocannon({ url, connections: CONNECTIONS, duration: 2, headers: { cookie } });
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: DURATION_S,
    headers: { cookie },
  });
  if (result.non2xx || result.errors)
    throw new Error(`${name}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return {
    name,
    p50: result.latency.p50,
    p99: result.latency.p99,
    rps: result.requests.average,
    bytes: result.throughput.average / result.requests.average,
  };
}

/**
 * The inventory service alone: the same calls as NATS requests, as the gateway makes them, from
 * the same number of concurrent callers. The difference to the HTTP figures is the gateway's share.
 */
async function measureNats(name, pattern, data) {
  const nc = await connect({ servers: NATS_URL, timeout: 5000 });
  const subject = `${namespace}.${pattern}`;
  const body = (id) => new TextEncoder().encode(JSON.stringify({ pattern, data, id: String(id) }));
  const latencies = [];
  let id = 0;
  const worker = async (until) => {
    while (performance.now() < until) {
      const started = performance.now();
      await nc.request(subject, body(id++), { timeout: 10_000 });
      latencies.push(performance.now() - started);
    }
  };
  const run = async (seconds) => {
    const until = performance.now() + seconds * 1000;
    await Promise.all(Array.from({ length: CONNECTIONS }, () => worker(until)));
  };
  try {
    await run(2);
    latencies.length = 0;
    await run(DURATION_S);
  } finally {
    await nc.close();
  }
  latencies.sort((a, b) => a - b);
  return {
    name,
    p50: round(percentile(latencies, 50)),
    p99: round(percentile(latencies, 99)),
    rps: latencies.length / DURATION_S,
    bytes: NaN,
  };
}

async function main() {
  buildServices();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cm-bench-'));
  const env = stackEnv(namespace, adminPassword);
  const db = await benchDatabase();
  let stack;
  // Before the system starts: the cleanup below needs it even when the start fails (a query on a
  // client never connected waits forever, and the bench would end silently with exit code 0).
  await db.connect();
  try {
    stack = await startStack({ env, port: 0, ephemeralPorts: true, dataDir });
    const seeded = await seed(db);
    console.log(
      `seeded ${seeded.buildings} buildings, ${seeded.rooms} rooms, ${seeded.equipment} equipment in ${seeded.seconds.toFixed(1)} s`,
    );
    const cookie = await signIn(stack.url, 'admin', adminPassword);
    const { rows } = await db.query(
      `SELECT id FROM ${schema}.buildings ORDER BY lower(name), id LIMIT 1 OFFSET $1`,
      [BUILDINGS / 2],
    );
    const results = [
      await measure('GET /api/healthz (reference)', `${stack.url}/api/healthz`, cookie),
      await measure(`GET /api/buildings (${BUILDINGS})`, `${stack.url}/api/buildings`, cookie),
      await measure(
        `GET /api/buildings/:id/rooms (${ROOMS_PER_BUILDING})`,
        `${stack.url}/api/buildings/${rows[0].id}/rooms`,
        cookie,
      ),
    ];
    results.push(
      await measureNats(`NATS inventory.building.list`, 'inventory.building.list', {}),
      await measureNats(`NATS inventory.room.list`, 'inventory.room.list', { buildingId: rows[0].id }),
    );
    const ref = results[0];
    console.log(`\n${CONNECTIONS} connections, ${DURATION_S} s each, node ${process.version}`);
    console.log('| call | p50 ms | p99 ms | req/s | bytes | p50 ÷ reference | p99 ÷ reference |');
    console.log('|---|---|---|---|---|---|---|');
    const ratio = (a, b) => (b > 0 ? (a / b).toFixed(1) : '—');
    for (const r of results) {
      console.log(
        `| ${r.name} | ${r.p50} | ${r.p99} | ${Math.round(r.rps)} | ${Number.isNaN(r.bytes) ? '' : Math.round(r.bytes)} | ${ratio(r.p50, ref.p50)} | ${ratio(r.p99, ref.p99)} |`,
      );
    }
  } finally {
    await tearDown({ stack, db, namespace, dataDir });
  }
}

runBench(main);
