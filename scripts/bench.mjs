// `npm run bench`: runs every benchmark under bench/ (each folder's run.mjs), one after another.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const only = process.argv.slice(2);
const benches = readdirSync(path.join(root, 'bench'), { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(path.join(root, 'bench', d.name, 'run.mjs')))
  .map((d) => d.name)
  .filter((name) => only.length === 0 || only.includes(name));

if (benches.length === 0) {
  console.log('No benchmarks to run.');
  process.exit(0);
}
let failed = 0;
for (const name of benches) {
  console.log(`\n=== bench/${name}`);
  const { status } = spawnSync(process.execPath, [path.join(root, 'bench', name, 'run.mjs')], {
    stdio: 'inherit',
    cwd: root,
  });
  if (status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
