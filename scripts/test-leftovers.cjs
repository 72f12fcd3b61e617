// What test runs stopped midway (a killed run, a crash, a session ended under a run) leave in the
// machine's PostgreSQL and NATS: a schema per service and namespace, and JetStream streams and KV
// buckets. JetStream reserves each stream's max_bytes, so enough of them make every later run fail
// to create its own, and thousands of schemas slow every later DROP SCHEMA. Only test namespaces'
// names (`testNamespace`: a label and 8 hex digits; benchmarks' `bench_` and 8) are touched.
//
// `node scripts/test-leftovers.cjs` removes those older than two hours, which no run under way
// still uses: a test namespace's hex part starts with the minute it was made (`testNamespace`),
// and a stream says when it was created. Test runs themselves call deleteStaleTestStreams.
const testStream = /^(KV_)?[a-z0-9]{1,8}_([0-9a-f]{8})_[A-Za-z_]+$/;
const testSchema = /^[a-z0-9]{1,8}_([0-9a-f]{8})_[a-z_]+$/;
const SPARED_MS = 2 * 3600_000;

/** Whether a namespace's hex part says it was made less than `withinMs` ago. */
function madeWithin(hex, withinMs) {
  const now = Math.floor(Date.now() / 60_000);
  const age = (now - parseInt(hex.slice(0, 4), 16)) & 0xffff;
  return age * 60_000 < withinMs;
}

/** The test database and NATS server of this machine, unless the environment names others. */
function testServices() {
  return {
    databaseUrl: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/classroom_monitor_test',
    natsUrl: (process.env.NATS_URL ?? 'nats://127.0.0.1:4222').split(',')[0],
  };
}

/** Deletes test streams created more than `olderThanMs` ago; answers how many went. */
async function deleteStaleTestStreams(url, olderThanMs) {
  const { connect } = require('nats');
  const nc = await connect({ servers: url, timeout: 5000, name: 'test-leftovers' });
  let deleted = 0;
  try {
    const jsm = await nc.jetstreamManager({ timeout: 5000 });
    for await (const stream of jsm.streams.list()) {
      const { name } = stream.config;
      const hex = testStream.exec(name)?.[1];
      if (!hex || madeWithin(hex, olderThanMs) || Date.now() - Date.parse(stream.created) < olderThanMs)
        continue;
      if (await jsm.streams.delete(name).catch(() => false)) deleted++;
    }
  } finally {
    await nc.close();
  }
  return deleted;
}

/** Drops the test schemas of the test database made `olderThanMs` ago or more; answers how many went. */
async function dropTestSchemas(url, olderThanMs) {
  const { Client } = require('pg');
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  let dropped = 0;
  try {
    await client.connect();
    const { rows } = await client.query('SELECT nspname FROM pg_namespace');
    for (const { nspname } of rows) {
      const hex = testSchema.exec(nspname)?.[1];
      if (!hex || madeWithin(hex, olderThanMs)) continue;
      await client.query(`DROP SCHEMA "${nspname}" CASCADE`);
      dropped++;
    }
  } catch (error) {
    // A fresh machine has no test database yet: nothing was left.
    if (error.code !== '3D000') throw error;
  } finally {
    await client.end();
  }
  return dropped;
}

module.exports = { deleteStaleTestStreams, dropTestSchemas, testServices };

if (require.main === module) {
  const { databaseUrl, natsUrl } = testServices();
  Promise.all([dropTestSchemas(databaseUrl, SPARED_MS), deleteStaleTestStreams(natsUrl, SPARED_MS)]).then(
    ([schemas, streams]) =>
      console.log(`Leftovers of earlier test runs: ${schemas} schemas and ${streams} streams removed`),
    (error) => {
      console.error(`Could not remove the leftovers of earlier test runs: ${error.message}`);
      process.exit(1);
    },
  );
}
