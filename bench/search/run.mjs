// Search latency through the gateway at 100,000 equipment (200 buildings × 50 rooms × 10 equipment),
// each with a model, a serial number and, for some, notes. Starts its own stack in a fresh
// namespace, seeds it with bulk SQL, measures each kind of search text one call at a time, and removes
// the namespace when done. The gateway's liveness route, measured in the same run, is the reference.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  benchDatabase,
  buildServices,
  runBench,
  root,
  seedCampus,
  signIn,
  stackEnv,
  tearDown,
} from '../support/campus.mjs';
import { percentile, round } from '../support/measure.mjs';

const require = createRequire(import.meta.url);
const { startStack } = require(path.join(root, 'scripts/stack.cjs'));

const CALLS = Number(process.env.BENCH_CALLS ?? 400);
const WARMUP = 40;

const namespace = `bench_${randomBytes(4).toString('hex')}`;
const schema = `"${namespace}_inventory"`;
const adminPassword = randomBytes(12).toString('base64url');

const kinds = ['Projector', 'Display', 'Document Camera', 'Microphone', 'Speaker', 'Switcher', 'Amplifier'];

/** The campus of the inventory bench, then names, models, serials and notes such as a campus has. */
async function seed(db) {
  const started = performance.now();
  await seedCampus(db, schema, { buildings: 200, roomsPerBuilding: 50, equipmentPerRoom: 10 });
  await db.query(
    `UPDATE ${schema}.equipment SET
       name = ($1::text[])[1 + abs(hashtext(id::text)) % $2] || ' ' || substr(md5(id::text), 1, 3),
       model = 'Model ' || upper(substr(md5(id::text || 'm'), 1, 6)),
       serial_number = upper(substr(md5(id::text || 's'), 1, 12)),
       notes = CASE WHEN abs(hashtext(id::text)) % 4 = 0 THEN 'Serviced by the AV team, bulb ' || substr(md5(id::text || 'n'), 1, 8) END`,
    [kinds, kinds.length],
  );
  await db.query(`VACUUM ANALYZE ${schema}.equipment`);
  const { rows } = await db.query(`SELECT count(*)::int AS equipment FROM ${schema}.equipment`);
  return { ...rows[0], seconds: (performance.now() - started) / 1000 };
}

/**
 * One caller, one search after another: the time a person waits for an answer. Concurrent load
 * on a shared two-core machine measures the queue more than the search.
 */
async function measure(name, url, cookie) {
  const call = async () => {
    const res = await globalThis.fetch(url, { headers: { cookie } });
    if (!res.ok) throw new Error(`${name}: answered ${res.status}: ${await res.text()}`);
    await res.arrayBuffer();
  };
  for (let i = 0; i < WARMUP; i++) await call();
  const latencies = [];
  for (let i = 0; i < CALLS; i++) {
    const started = performance.now();
    await call();
    latencies.push(performance.now() - started);
  }
  latencies.sort((a, b) => a - b);
  return { name, p50: round(percentile(latencies, 50)), p99: round(percentile(latencies, 99)) };
}

async function main() {
  buildServices();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cm-bench-'));
  const db = await benchDatabase();
  let stack;
  try {
    stack = await startStack({
      env: stackEnv(namespace, adminPassword),
      port: 0,
      ephemeralPorts: true,
      dataDir,
    });
    await db.connect();
    const seeded = await seed(db);
    console.log(`seeded ${seeded.equipment} equipment in ${seeded.seconds.toFixed(1)} s`);
    const cookie = await signIn(stack.url, 'admin', adminPassword);
    const [one] = (
      await db.query(`SELECT serial_number FROM ${schema}.equipment ORDER BY id LIMIT 1 OFFSET 50000`)
    ).rows;
    const search = (q) => `${stack.url}/api/search?q=${encodeURIComponent(q)}`;
    const cases = [
      ['a serial number fragment (one match)', one.serial_number.slice(3, 10).toLowerCase()],
      ['a common word (a seventh of all equipment)', 'projector'],
      ['a word in a quarter of the notes', 'av team'],
      ['a building name fragment', 'ding 12'],
      ['three letters', 'pro'],
      ['nothing matches', 'zzqxw'],
    ];
    const results = [await measure('GET /api/healthz (reference)', `${stack.url}/api/healthz`, cookie)];
    for (const [what, q] of cases) results.push(await measure(`search ${what}: "${q}"`, search(q), cookie));
    const ref = results[0];
    console.log(`\n${CALLS} calls each, one at a time, node ${process.version}`);
    console.log('| call | p50 ms | p99 ms | p99 ÷ reference |');
    console.log('|---|---|---|---|');
    for (const r of results) {
      console.log(`| ${r.name} | ${r.p50} | ${r.p99} | ${(r.p99 / Math.max(ref.p99, 0.1)).toFixed(1)} |`);
    }
  } finally {
    await tearDown({ stack, db, namespace, dataDir });
  }
}

runBench(main);
