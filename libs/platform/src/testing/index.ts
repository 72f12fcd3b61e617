import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/** A namespace of its own for one test file: subjects, streams and schemas never cross. */
export function testNamespace(label = 't'): string {
  return `${label.replace(/[^a-z0-9]/g, '').slice(0, 8) || 't'}_${randomBytes(4).toString('hex')}`;
}

export const testDatabaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/classroom_monitor_test';
export const testNatsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';

/** The environment a service under test reads: local services, its own namespace, a free port. */
export function testEnv(namespace: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    NODE_ENV: 'test',
    CM_NAMESPACE: namespace,
    DATABASE_URL: testDatabaseUrl,
    NATS_URL: testNatsUrl,
    HTTP_PORT: '0',
    LOG_LEVEL: 'warn',
    ...extra,
  };
}

/** Drops every schema a test namespace created. */
export async function dropNamespaceSchemas(namespace: string, url = testDatabaseUrl): Promise<void> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    const { rows } = await client.query<{ nspname: string }>(
      "SELECT nspname FROM pg_namespace WHERE nspname LIKE $1 || '\\_%'",
      [namespace],
    );
    for (const { nspname } of rows) await client.query(`DROP SCHEMA "${nspname}" CASCADE`);
  } finally {
    await client.end();
  }
}
