import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deleteNamespaceStreams } from '@cm/platform';
import { dropNamespaceSchemas, eventually, testEnv, testNamespace, testNatsUrl } from '@cm/platform/testing';

export interface RunningStack {
  url: string;
  namespace: string;
  children: Map<string, import('node:child_process').ChildProcess>;
  /** The environment every service was started with (to start another replica alike). */
  env: Record<string, string>;
  stop(graceMs?: number): Promise<void>;
  logs: string[];
}

// The launcher `npm start` uses: the system under test runs exactly as it does for a person.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const launcher = require('../../scripts/stack.cjs') as {
  startStack(options: object): Promise<RunningStack>;
};

const logDir = path.resolve(__dirname, '../../artifacts/logs');

export interface Credentials {
  username: string;
  password: string;
}

/** The first administrator's password: the one given, or the one auth generated into its file. */
async function adminOf(env: Record<string, string>): Promise<Credentials> {
  const username = env.ADMIN_USERNAME ?? 'admin';
  if (env.ADMIN_PASSWORD) return { username, password: env.ADMIN_PASSWORD };
  // Auth may answer health checks a moment before it has created the administrator.
  const password = await eventually(
    () => {
      try {
        return readFileSync(env.ADMIN_PASSWORD_OUTPUT_FILE, 'utf8').trim();
      } catch (error) {
        throw new Error(
          `The auth service kept no generated administrator password: ${(error as Error).message}`,
        );
      }
    },
    10_000,
    100,
  );
  return { username, password };
}

/**
 * The whole system as child processes, in a namespace and on ports of its own. `admin` signs in
 * as the first administrator (see `signIn` in ./session).
 */
export async function startSystem(
  env: Record<string, string> = {},
  options: {
    namespace?: string;
    serviceEnv?: Record<string, Record<string, string>>;
    /** A NATS server of the system's own with a user per service, as `npm start` runs it. */
    ownNats?: boolean;
    /** Start a crashed service again, as `npm start` does; off in tests that must see crashes. */
    restart?: boolean;
    /** Where the session secret and the encryption keys are kept (default: a folder of its own). */
    dataDir?: string;
  } = {},
): Promise<RunningStack & { admin: Credentials; dataDir: string; close(): Promise<void> }> {
  const namespace = options.namespace ?? testNamespace('e2e');
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'cm-e2e-'));
  const logs: string[] = [];
  const { HTTP_PORT: _ignored, ...serviceEnv } = testEnv(namespace, { LOG_LEVEL: 'info', ...env });
  const stack = await launcher.startStack({
    env: serviceEnv,
    serviceEnv: options.serviceEnv,
    ownNats: options.ownNats,
    port: 0,
    ephemeralPorts: true,
    dataDir,
    onLine: (service: string, line: string) => logs.push(`${service} ${line}`),
    restart: options.restart,
    onRestart: (service: string, message: string) => logs.push(`${service} ${message}`),
  });
  const admin = await adminOf(stack.env).catch(async (error: unknown) => {
    await stack.stop();
    throw error;
  });
  return {
    ...stack,
    logs,
    admin,
    dataDir,
    close: async () => {
      await stack.stop();
      mkdirSync(logDir, { recursive: true });
      writeFileSync(path.join(logDir, `${namespace}.log`), logs.join('\n'));
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
      await dropNamespaceSchemas(namespace);
      await deleteNamespaceStreams(namespace, testNatsUrl);
    },
  };
}
