// Integration tests talk to real PostgreSQL and NATS: the ones on this machine. Only where those
// do not answer and a Docker engine does, testcontainers starts them for this run.
const net = require('node:net');
const { deleteStaleTestStreams, testServices } = require('./test-leftovers.cjs');

function answers(url, fallbackPort) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port || fallbackPort), timeout: 1500 });
    socket.once('connect', () => resolve(socket.end() && true));
    socket.once('timeout', () => resolve(socket.destroy() && false));
    socket.once('error', () => resolve(false));
  });
}

/** The test database, created when missing: a fresh machine has only its default databases. */
async function ensureTestDatabase(url) {
  const { Client } = require('pg');
  const target = new URL(url);
  const database = decodeURIComponent(target.pathname.slice(1));
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString(), connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (rowCount) return;
    await client.query(`CREATE DATABASE "${database.replace(/"/g, '""')}"`).catch((error) => {
      // A test run beside this one created it first (23505 when both creates ran at once).
      if (error.code !== '42P04' && error.code !== '23505') throw error;
    });
  } finally {
    await client.end();
  }
}

/** Streams of runs stopped midway; hours old only, so that a run beside this one keeps its own. */
const STALE_MS = 3 * 3600_000;

module.exports = async function setup() {
  const { databaseUrl, natsUrl } = testServices();
  const [pgUp, natsUp] = await Promise.all([answers(databaseUrl, 5432), answers(natsUrl, 4222)]);
  if (pgUp) await ensureTestDatabase(databaseUrl);
  if (natsUp) await deleteStaleTestStreams(natsUrl, STALE_MS);
  if (pgUp && natsUp) return;

  const missing = [
    !pgUp && `PostgreSQL (${new URL(databaseUrl).host})`,
    !natsUp && `NATS (${new URL(natsUrl).host})`,
  ]
    .filter(Boolean)
    .join(' and ');
  const { GenericContainer, Wait, getContainerRuntimeClient } = require('testcontainers');
  try {
    await getContainerRuntimeClient();
  } catch {
    throw new Error(
      `${missing} does not answer and no Docker engine is available: run "bash scripts/ensure-services.sh".`,
    );
  }
  globalThis.__testContainers = [];
  if (!pgUp) {
    const pg = await new GenericContainer('postgres:15-alpine')
      .withEnvironment({ POSTGRES_HOST_AUTH_METHOD: 'trust' })
      .withExposedPorts(5432)
      .withWaitStrategy(Wait.forLogMessage(/database system is ready to accept connections/, 2))
      .start();
    globalThis.__testContainers.push(pg);
    process.env.DATABASE_URL = `postgres://postgres@${pg.getHost()}:${pg.getMappedPort(5432)}/classroom_monitor_test`;
    await ensureTestDatabase(process.env.DATABASE_URL);
  }
  if (!natsUp) {
    const nats = await new GenericContainer('nats:2-alpine')
      .withCommand(['-js'])
      .withExposedPorts(4222)
      .start();
    globalThis.__testContainers.push(nats);
    process.env.NATS_URL = `nats://${nats.getHost()}:${nats.getMappedPort(4222)}`;
  }
};
