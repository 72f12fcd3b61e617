import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type ServiceName } from '@cm/contracts';
import { type DynamicModule, type INestApplication } from '@nestjs/common';
import { Client } from 'pg';
import { type z } from 'zod';
import { bootstrapService } from '../bootstrap';
import { ConfigError, type CoreConfig, type HttpPortConfig, parseEnv } from '../config';
import { deleteNamespaceStreams } from '../nats/streams';
import { RpcClient } from '../nats/rpc-client';

export { eventually } from './eventually';
export * from './nats-server';
export { NetnsLab } from './netns-lab';
export * from './openid-provider';
export * from './otlp-receiver';
export * from './request-loop';
export { sample } from './prometheus';

/** What a configuration schema names wrong with `env`; throws when it takes it. */
export function configProblems(schema: z.ZodType, env: NodeJS.ProcessEnv): string[] {
  try {
    parseEnv(schema, env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('The configuration was taken: a refusal was expected');
}

/**
 * A namespace of its own for one test file: subjects, streams and schemas never cross. Its hex part
 * starts with the minute it was made (minutes since the epoch, modulo 2^16), so that removing the
 * leftovers of stopped runs (scripts/test-leftovers.cjs) spares the namespaces of runs under way.
 */
export function testNamespace(label = 't'): string {
  const minute = (Math.floor(Date.now() / 60_000) & 0xffff).toString(16).padStart(4, '0');
  return `${label.replace(/[^a-z0-9]/g, '').slice(0, 8) || 't'}_${minute}${randomBytes(2).toString('hex')}`;
}

export const testDatabaseUrl =
  process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/classroom_monitor_test';
export const testNatsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';

const secretKey = randomBytes(32);

/**
 * The environment a service under test reads: local services, its own namespace, a free port,
 * cheap password hashing, and a session secret that is random but the same for every start in one
 * namespace (a restarted gateway must accept the cookies it signed before).
 */
export function testEnv(namespace: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    NODE_ENV: 'test',
    CM_NAMESPACE: namespace,
    DATABASE_URL: testDatabaseUrl,
    NATS_URL: testNatsUrl,
    HTTP_PORT: '0',
    METRICS_PORT: '0',
    LOG_LEVEL: 'warn',
    SESSION_SECRET: createHmac('sha256', secretKey).update(namespace).digest('base64url'),
    // The cheapest argon2id the auth service accepts: tests sign in hundreds of times.
    PASSWORD_HASH_MEMORY_KIB: '1024',
    PASSWORD_HASH_PASSES: '1',
    PASSWORD_HASH_PARALLELISM: '1',
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

export interface TestService<C> {
  app: INestApplication;
  config: C;
  namespace: string;
  /** A client in the same namespace, as another service would call it. */
  rpc: RpcClient;
  close(): Promise<void>;
}

/**
 * Boots one service in this process against the real PostgreSQL and NATS, in a namespace of
 * its own, and tears it down with its schemas.
 */
export async function startTestService<C extends CoreConfig & HttpPortConfig>(options: {
  service: ServiceName;
  schema: z.ZodType<C>;
  module: (config: C) => DynamicModule;
  env?: Record<string, string>;
  namespace?: string;
}): Promise<TestService<C>> {
  const namespace = options.namespace ?? testNamespace(options.service);
  const config = parseEnv(options.schema, testEnv(namespace, options.env));
  const app = await bootstrapService({
    service: options.service,
    module: options.module(config),
    config,
    handleSignals: false,
  });
  // A test judges what the service answers, not how fast (that is bench/'s): on a machine loaded by
  // other test lanes, an S3 multipart completion has taken over 10 s.
  const rpc = new RpcClient({ namespace, servers: config.NATS_URL, timeoutMs: 30_000, name: 'test' });
  return {
    app,
    config,
    namespace,
    rpc,
    close: async () => {
      await rpc.onApplicationShutdown();
      await app.close();
      if (!options.namespace) {
        await dropNamespaceSchemas(namespace);
        await deleteNamespaceStreams(namespace, config.NATS_URL);
      }
    },
  };
}

const repoRoot = path.resolve(__dirname, '../../../..');

type ServiceConfig = CoreConfig & HttpPortConfig;

/**
 * Another service, from its source (jest transpiles it), for `startTestService`: a test that
 * needs the real one beside the service it tests. Required by path so that the type-check of
 * the service under test does not take in another service's files.
 */
export function serviceFromSource(service: ServiceName) {
  const dir = path.join(repoRoot, 'services', service, 'src');
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { AppModule } = require(path.join(dir, 'app.module')) as {
    AppModule: { forRoot(config: ServiceConfig): DynamicModule };
  };
  const { configSchema: schema } = require(path.join(dir, 'config')) as {
    configSchema: z.ZodType<ServiceConfig>;
  };
  /* eslint-enable @typescript-eslint/no-require-imports */
  return { service, module: AppModule.forRoot, schema };
}

/** The same local S3-API server that the start command runs, on a free port. */
export async function startLocalS3(): Promise<{ endpoint: string; close(): Promise<void> }> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const stack = require(path.join(repoRoot, 'scripts/stack.cjs')) as {
    startLocalS3(o: {
      directory: string;
      port: number;
    }): Promise<{ endpoint: string; close(): Promise<void> }>;
  };
  const directory = mkdtempSync(path.join(tmpdir(), 'cm-s3-'));
  const server = await stack.startLocalS3({ directory, port: 0 });
  let closed: Promise<void> | undefined;
  return {
    endpoint: server.endpoint,
    close: () => (closed ??= server.close().then(() => rmSync(directory, { recursive: true, force: true }))),
  };
}
