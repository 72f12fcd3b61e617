import path from 'node:path';
import { publishSharedSystem, sharedSystemEnv, sharedSystemFiles } from './shared-system';
import { startSystem } from './stack';

/** Starts the shared system when at least one file that uses it is about to run. */
export default async function setup(globalConfig: { testPathPattern?: string }): Promise<void> {
  const pattern = new RegExp(globalConfig.testPathPattern ?? '', 'i');
  const wanted = sharedSystemFiles.some((name) => pattern.test(path.join(__dirname, `${name}.e2e-spec.ts`)));
  if (!wanted) return;
  const system = await startSystem(sharedSystemEnv);
  (globalThis as { sharedSystem?: typeof system }).sharedSystem = system;
  publishSharedSystem({
    url: system.url,
    namespace: system.namespace,
    admin: system.admin,
    pids: Object.fromEntries([...system.children].map(([name, child]) => [name, child.pid!])),
  });
}
