// `npm test`: lint, type checks and every test tier, then one closing line with the counts.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const results = path.join(root, 'artifacts', 'jest');
const env = {
  ...process.env,
  NX_DAEMON: 'false',
  NX_NO_CLOUD: 'true',
  FORCE_COLOR: process.env.CI ? '0' : '1',
};

const steps = [
  ['Local services', 'bash', ['scripts/ensure-services.sh']],
  // Made before any test starts: made later, it would change this machine's network under the
  // browser tests (see the script).
  ['Device lab network', 'bash', ['scripts/ensure-test-network.sh']],
  // Side by side: each of these is one process on one core. `tsc -b` builds every library and
  // service (dist/) and type-checks every project's tests against that build, the web app, e2e
  // and deploy included, in one process that reads the declarations they share once (see
  // ./tsconfig.json); the `build` and `typecheck` targets below find it all up to date.
  [
    ['Build and type checks', 'npx', ['tsc', '-b']],
    [
      'Formatting',
      'npx',
      ['prettier', '--check', 'libs', 'services', 'web/src', 'e2e/src', 'scripts', 'bench'],
    ],
    [
      'Layer rules',
      'npx',
      [
        'depcruise',
        '--config',
        '.dependency-cruiser.cjs',
        '--output-type',
        'err',
        'libs',
        'services',
        'web/src',
      ],
    ],
    ['Size rules', 'node', ['scripts/code-size.mjs']],
    [
      'Lint of scripts, benchmarks and root configuration',
      'npx',
      ['eslint', 'scripts', 'bench', '.dependency-cruiser.cjs', 'eslint.config.mjs', 'jest.preset.js'],
    ],
  ],
  // Not beside `tsc -b` although neither needs the build: the form tests' typing took over their
  // 20 s on the loaded cores (channel-form.spec).
  ['Lint and unit tests', 'npx', ['nx', 'run-many', '-t', 'lint', 'test', '--parallel=2']],
  // The web bundle; what `tsc -b` built is up to date, as are the type checks `build` runs first.
  ['Build', 'npx', ['nx', 'run-many', '-t', 'build', '--parallel=2']],
  // Reads the web build the step above made.
  ['Initial JavaScript budget', 'node', ['scripts/web-bundle-budget.mjs']],
  // The web's reply checks are written from the contracts' schemas (built by `tsc -b`): a contract
  // changed without them fails here, by name, before any test.
  ['Reply checks up to date', 'node', ['scripts/web-reply-checks.mjs', '--check']],
  // Reads the gateway's build: Redocly's rules, and a client generated from the document.
  ['API document', 'node', ['scripts/api-document.mjs']],
  // Side by side: these tiers spend most of their time waiting on I/O, services and timers, and
  // each file works in a namespace of its own (schemas, subjects, streams). Not beside the lint and
  // type checks, which would take the CPU that the tests' timings need. Everything is built by
  // now, so neither restores a build under the other's feet.
  [
    [
      'Integration tests',
      'npx',
      ['nx', 'run-many', '-t', 'test-int', '--parallel=2', '--excludeTaskDependencies'],
    ],
    ['End-to-end tests', 'npx', ['nx', 'run-many', '-t', 'test-e2e', '--excludeTaskDependencies']],
  ],
];

rmSync(results, { recursive: true, force: true });
const failed = [];
const startedAt = Date.now();

/**
 * CPU seconds (user and system) of the child processes that have ended, from /proc where there is
 * one: what a step costs, which its wall-clock time on a shared machine does not tell.
 */
function childCpuSeconds() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return NaN;
  }
}

/** Runs one step, printing when it starts and ends; answers whether it passed. */
function run([title, command, args]) {
  console.log(`\n=== ${title}: ${command} ${args.join(' ')}`);
  const started = Date.now();
  return new Promise((resolve) =>
    spawn(command, args, { cwd: root, env, stdio: 'inherit' }).on('exit', (code) => {
      const seconds = Math.round((Date.now() - started) / 1000);
      console.log(`=== ${title}: ${code === 0 ? 'ok' : 'FAILED'} in ${seconds} s`);
      if (code !== 0) failed.push(title);
      resolve(code === 0);
    }),
  );
}

const timings = [];
for (const step of steps) {
  // A step is one command, or a list of commands that run at the same time.
  const together = Array.isArray(step[0]) ? step : [step];
  const started = Date.now();
  const cpuBefore = childCpuSeconds();
  const passed = await Promise.all(together.map(run));
  timings.push({
    title: together.map(([title]) => title).join(' + '),
    wall: (Date.now() - started) / 1000,
    cpu: childCpuSeconds() - cpuBefore,
  });
  if (!passed[0] && together[0][0] === 'Local services') break;
}

function* files(dir) {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) yield* files(full);
    else if (name.endsWith('.json')) yield full;
  }
}
const total = { passed: 0, failed: 0, skipped: 0 };
const durations = [];
for (const file of files(results)) {
  const counts = JSON.parse(readFileSync(file, 'utf8'));
  for (const key of Object.keys(total)) total[key] += counts[key] ?? 0;
  durations.push(...(counts.files ?? []));
}

// Where the time goes, for whoever makes the run shorter. Files of one tier run side by side, so
// their sum is more than the wall-clock time; unit files of a cached run keep their first times.
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
if (durations.length) {
  durations.sort((a, b) => b.ms - a.ms);
  const width = Math.max(...durations.slice(0, 10).map((d) => d.path.length));
  console.log('\nSlowest test files:');
  for (const d of durations.slice(0, 10))
    console.log(`  ${d.path.padEnd(width)}  ${seconds(d.ms).padStart(8)}`);
  const sum = durations.reduce((all, d) => all + d.ms, 0);
  console.log(`Test files: ${durations.length}, ${seconds(sum)} in all`);
}
// Where the run's time goes, step by step: on two cores, a step's CPU time over two is the least
// wall-clock time it can take.
console.log('\nSteps (wall-clock, CPU of their processes):');
for (const t of timings)
  console.log(`  ${t.wall.toFixed(0).padStart(5)} s  ${t.cpu.toFixed(0).padStart(5)} CPU s  ${t.title}`);
console.log(`npm test took ${seconds(Date.now() - startedAt)}`);

if (failed.length) console.log(`\nFailed steps: ${failed.join(', ')}`);
console.log(`\nTests: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
process.exit(failed.length || total.failed ? 1 : 0);
