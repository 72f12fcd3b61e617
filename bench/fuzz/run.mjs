// The gateway's fuzz test at the size of a security review: malformed input to every route of the
// registry against every service (loopback only), failing on any 5xx, any answer slower than 5 s or
// any 4xx without a message. `npm test` runs the same file at a few thousand cases; this runs
// FUZZ_CASES (27000 by default) from FUZZ_SEED (a fixed one by default, so a finding replays).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const gateway = path.join(root, 'services/gateway');

const { status } = spawnSync(
  process.execPath,
  [
    path.join(root, 'node_modules/jest/bin/jest.js'),
    '--selectProjects',
    'integration',
    '--runTestsByPath',
    'test/fuzz.int-spec.ts',
  ],
  {
    cwd: gateway,
    stdio: 'inherit',
    env: { ...process.env, FUZZ_CASES: process.env.FUZZ_CASES ?? '27000' },
  },
);
process.exit(status ?? 1);
