import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { dropNamespaceSchemas, testEnv, testNamespace } from '@cm/platform/testing';

export interface RunningStack {
  url: string;
  namespace: string;
  children: Map<string, import('node:child_process').ChildProcess>;
  stop(graceMs?: number): Promise<void>;
  logs: string[];
}

// The launcher `npm start` uses: the system under test runs exactly as it does for a person.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const launcher = require('../../scripts/stack.cjs') as {
  startStack(options: object): Promise<RunningStack>;
};

const logDir = path.resolve(__dirname, '../../artifacts/logs');

/** The whole system as child processes, in a namespace and on ports of its own. */
export async function startSystem(
  env: Record<string, string> = {},
): Promise<RunningStack & { close(): Promise<void> }> {
  const namespace = testNamespace('e2e');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cm-e2e-'));
  const logs: string[] = [];
  const { HTTP_PORT: _ignored, ...serviceEnv } = testEnv(namespace, { LOG_LEVEL: 'info', ...env });
  const stack = await launcher.startStack({
    env: serviceEnv,
    port: 0,
    ephemeralPorts: true,
    dataDir,
    onLine: (service: string, line: string) => logs.push(`${service} ${line}`),
  });
  return {
    ...stack,
    logs,
    close: async () => {
      await stack.stop();
      mkdirSync(logDir, { recursive: true });
      writeFileSync(path.join(logDir, `${namespace}.log`), logs.join('\n'));
      rmSync(dataDir, { recursive: true, force: true });
      await dropNamespaceSchemas(namespace);
    },
  };
}
