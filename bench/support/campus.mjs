// What the benchmarks that run the whole system share: building it, seeding a campus straight into
// PostgreSQL, signing in, and removing the namespace afterwards.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const { connect } = require('nats');
// Ports outside the range of outgoing connections, which could take one before the replica binds it.
const { portAhead, releasePort } = require('../../scripts/port-claims.cjs');

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export const DATABASE_URL =
  process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/classroom_monitor_test';
export const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';

/**
 * A client (not yet connected) of the benchmarks' database, creating that database when it is
 * missing: on a fresh machine only `npm test` would have made classroom_monitor_test. Needs
 * @cm/platform built (buildServices).
 * @param {import('pg').ClientConfig} [config]
 */
export async function benchDatabase(config = {}) {
  const { ensureDatabase } = require(path.join(root, 'libs/platform/dist/database.js'));
  await ensureDatabase(DATABASE_URL);
  const { Client } = require('pg');
  return new Client({ connectionString: DATABASE_URL, ...config });
}

/** What every benchmark's stack is started with: its namespace, the local services, quiet logs. */
export function stackEnv(namespace, adminPassword, extra = {}) {
  return {
    CM_NAMESPACE: namespace,
    DATABASE_URL,
    NATS_URL,
    ADMIN_PASSWORD: adminPassword,
    LOG_LEVEL: 'warn',
    ...extra,
  };
}

export function buildServices() {
  // BENCH_BUILD=0: run what is built as it is (an A/B of two builds swapped in between runs).
  if (process.env.BENCH_BUILD === '0') return;
  const projects = ['contracts', 'platform', 'auth', 'inventory', 'media', 'monitor', 'gateway'].map(
    (p) => `@cm/${p}`,
  );
  const { status } = spawnSync('npx', ['nx', 'run-many', '-t', 'build', '-p', ...projects], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (status !== 0) throw new Error('Building the services failed');
}

/** Buildings × rooms × equipment in three `INSERT … SELECT generate_series` statements. */
export async function seedCampus(db, schema, { buildings, roomsPerBuilding, equipmentPerRoom }) {
  await db.query('BEGIN');
  await db.query(
    `INSERT INTO ${schema}.buildings (name, description)
     SELECT 'Building ' || lpad(g::text, 3, '0'), 'Seeded for the benchmark' FROM generate_series(1, $1) g`,
    [buildings],
  );
  await db.query(
    `INSERT INTO ${schema}.rooms (building_id, name, type, floor, capacity)
     SELECT b.id, 'Room ' || lpad(r::text, 2, '0'), 'Classroom', ((r - 1) / 10 + 1)::text, 30
       FROM ${schema}.buildings b, generate_series(1, $1) r`,
    [roomsPerBuilding],
  );
  // Without addresses: the change-event trigger (for the monitor) stays quiet during the seed.
  await db.query(
    `INSERT INTO ${schema}.equipment (room_id, name, model)
     SELECT r.id, 'Equipment ' || e, 'Model ' || e FROM ${schema}.rooms r, generate_series(1, $1) e`,
    [equipmentPerRoom],
  );
  await db.query('COMMIT');
  // What autovacuum does after a bulk load: statistics, and the visibility map for index-only counts.
  await db.query(`VACUUM ANALYZE ${schema}.buildings, ${schema}.rooms, ${schema}.equipment`);
}

/**
 * Signs in as `username` and answers the session cookie (`cm.sid=…`). Auth answers sign-ins before
 * it has created the first administrator from ADMIN_PASSWORD (hashing it takes a while on a busy
 * machine), so a refusal is tried again for up to `waitMs`; so is a 504, auth not answering within
 * the gateway's deadline (hashing the password on a machine loaded many times over).
 */
export async function signIn(url, username, password, { waitMs = 30_000 } = {}) {
  const deadline = Date.now() + waitMs;
  let res;
  for (;;) {
    res = await globalThis.fetch(`${url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password }),
    });
    if ((res.status !== 401 && res.status !== 504) || Date.now() > deadline) break;
    await res.arrayBuffer();
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  if (!res.ok) throw new Error(`Sign-in answered ${res.status}: ${await res.text()}`);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .find((c) => c.startsWith('cm.sid='));
  if (!cookie) throw new Error('Sign-in set no session cookie');
  return cookie;
}

/**
 * One JSON call to the API as the session of `cookie` (a bench's own `x-requested-with`, as the
 * gateway asks of a browser's writes): its JSON answer, or an error naming the status and body.
 */
export async function callApi(url, cookie, method, pathname, body, { timeoutMs = 30_000 } = {}) {
  const res = await globalThis.fetch(`${url}${pathname}`, {
    method,
    headers: { cookie, 'content-type': 'application/json', 'x-requested-with': 'bench' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (!res.ok) throw new Error(`${method} ${pathname} answered ${res.status}: ${await res.text()}`);
  return res.json();
}

/** Drops the namespace's schemas, its JetStream streams and its KV buckets. */
export async function removeNamespace(db, natsUrl, namespace) {
  const { rows } = await db.query("SELECT nspname FROM pg_namespace WHERE nspname LIKE $1 || '\\_%'", [
    namespace,
  ]);
  for (const { nspname } of rows) await db.query(`DROP SCHEMA "${nspname}" CASCADE`);
  const nc = await connect({ servers: natsUrl, timeout: 5000 });
  try {
    const jsm = await nc.jetstreamManager({ timeout: 5000 });
    // Every stream of the namespace (STATUS, EQUIPMENT, LIVE, …) and its KV buckets' streams.
    const list = await jsm.streams.names().next();
    for (const name of list.filter((n) => n.startsWith(`${namespace}_`) || n.startsWith(`KV_${namespace}_`)))
      await jsm.streams.delete(name).catch(() => undefined);
  } finally {
    await nc.close();
  }
}

/**
 * What every bench does last, even after a failure: stops the system, removes the namespace and
 * the data folder, closes the database client. A step that fails is reported, not thrown, so the
 * others still run and the bench's own error is the one shown.
 */
export async function tearDown({ stack, db, namespace, dataDir }) {
  await stack?.stop();
  await removeNamespace(db, NATS_URL, namespace).catch((error) => console.error(`cleanup: ${error.message}`));
  await db.end().catch(() => undefined);
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}

/**
 * Another gateway replica beside the stack's own (same namespace, sessions and services), of the
 * build at `main` (the stack's `services/gateway/dist/main.js`, or another build to compare),
 * with the environment the stack gave its gateway (process `gatewayPid`) and ports of its own.
 * Stop it with `child.kill('SIGTERM')`.
 */
export async function startGatewayReplica(main, gatewayPid) {
  const environ = readFileSync(`/proc/${gatewayPid}/environ`, 'utf8').split('\0').filter(Boolean);
  const env = Object.fromEntries(
    environ.map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
  const port = await portAhead();
  const child = spawn(process.execPath, [main], {
    env: { ...env, PORT: String(port), METRICS_PORT: '0', HTTP_PORT: '0' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  child.once('exit', () => releasePort(port, '127.0.0.1'));
  const url = `http://127.0.0.1:${port}`;
  for (const started = Date.now(); ;) {
    if (child.exitCode !== null) throw new Error(`The second gateway exited with ${child.exitCode}`);
    const ok = await fetch(`${url}/api/healthz`, { signal: AbortSignal.timeout(5000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { url, child };
    if (Date.now() - started > 90_000) {
      child.kill('SIGTERM');
      throw new Error('The second gateway did not become ready within 90 s');
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** Runs a bench's `main` and exits with its outcome (the system's connections would keep the process alive). */
export function runBench(main) {
  main().then(
    () => process.exit(process.exitCode ?? 0),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
