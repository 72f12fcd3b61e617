// Ping sweeps of loopback addresses (all of 127.0.0.0/8 answers on Linux): the monitor's pinger
// (one net-ping session, paced) against fping on the same addresses with the same gap, timeout
// and retries, in the same run. Reports wall time and CPU time per 1,000 pings and the ratios.
// Needs root (raw ICMP) and fping (`apt-get install -y fping`).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const SIZES = (process.env.BENCH_SIZES ?? '1000,10000').split(',').map(Number);
const GAPS = (process.env.BENCH_GAPS_MS ?? '0.5,0').split(',').map(Number);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 5);
const TIMEOUT_MS = 1000;
const RETRIES = 1;

function preflight() {
  if (process.getuid?.() !== 0) {
    console.error('bench/monitor needs root for raw ICMP sockets (or node and fping with cap_net_raw).');
    process.exit(1);
  }
  if (spawnSync('fping', ['--version']).status !== 0) {
    console.error('bench/monitor needs fping: apt-get install -y fping');
    process.exit(1);
  }
  const { status } = spawnSync('npx', ['nx', 'run', '@cm/monitor:build'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (status !== 0) throw new Error('Building the monitor failed');
}

/** Distinct loopback addresses, 250 per /24, away from 127.0.0.x. */
function addresses(n) {
  return Array.from(
    { length: n },
    (_, i) => `127.${40 + Math.floor(i / 62_500)}.${Math.floor(i / 250) % 250}.${(i % 250) + 1}`,
  );
}

/** Runs a shell command line and answers its wall time and its children's CPU time (bash `times`). */
function timed(commandLine) {
  const started = performance.now();
  const { stdout, status, stderr } = spawnSync(
    'bash',
    ['-c', `set -o pipefail; ${commandLine}; status=$?; times; exit $status`],
    { encoding: 'utf8' },
  );
  const wallMs = performance.now() - started;
  if (status !== 0) throw new Error(`${commandLine} failed (${status}): ${stderr}${stdout}`);
  const lines = stdout.trim().split('\n');
  // The last line of `times` is the children's user and system time, e.g. "0m0.012s 0m0.034s".
  const [user, sys] = lines
    .at(-1)
    .split(/\s+/)
    .map((t) => {
      const m = /(\d+)m([\d.]+)s/.exec(t);
      return (Number(m[1]) * 60 + Number(m[2])) * 1000;
    });
  return { wallMs, cpuMs: user + sys, output: lines.slice(0, -2) };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const per1000 = (ms, n) => (ms * 1000) / n;
const fmt = (n, digits = 1) => n.toFixed(digits);

function measure(file, n, gap) {
  const runs = { fping: [], cold: [], warm: [] };
  for (let i = 0; i < REPEAT; i++) {
    // Alternate, so both see the same machine conditions.
    const f = timed(`fping -q -a -i ${gap} -t ${TIMEOUT_MS} -r ${RETRIES} -f ${file} | wc -l`);
    runs.fping.push({ wallMs: f.wallMs, cpuMs: f.cpuMs, alive: Number(f.output.at(-1)) });
    const o = timed(`node ${path.join(here, 'sweep.cjs')} ${file} ${gap} ${TIMEOUT_MS} ${RETRIES}`);
    const { cold, warm } = JSON.parse(o.output.at(-1));
    runs.cold.push(cold);
    runs.warm.push(warm);
  }
  for (const [who, list] of Object.entries(runs)) {
    for (const r of list)
      if (r.alive !== n) console.warn(`  warning: ${who}: ${r.alive} of ${n} answered in one run`);
  }
  const summary = (list) => ({
    wallMs: median(list.map((r) => r.wallMs)),
    cpuMs: median(list.map((r) => r.cpuMs)),
  });
  return { fping: summary(runs.fping), cold: summary(runs.cold), warm: summary(runs.warm) };
}

preflight();
const dir = mkdtempSync(path.join(tmpdir(), 'cm-bench-monitor-'));
try {
  console.log(
    `Loopback sweeps, timeout ${TIMEOUT_MS} ms, ${RETRIES} retry, median of ${REPEAT} runs each (fping ${spawnSync('fping', ['--version'], { encoding: 'utf8' }).stdout.trim().split(/\s+/).at(-1)}, Node ${process.version})\n`,
  );
  console.log(
    '| addresses | gap ms | fping wall ms | monitor wall ms (warm) | wall ratio | fping CPU ms / 1000 pings | monitor CPU ms / 1000 (warm) | CPU ratio (warm) | monitor CPU ms / 1000 (first sweep) | CPU ratio (first) |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const n of SIZES) {
    const file = path.join(dir, `${n}.txt`);
    writeFileSync(file, `${addresses(n).join('\n')}\n`);
    for (const gap of GAPS) {
      const { fping, cold, warm } = measure(file, n, gap);
      console.log(
        `| ${n} | ${gap} | ${fmt(fping.wallMs, 0)} | ${fmt(warm.wallMs, 0)} | ${fmt(warm.wallMs / fping.wallMs, 2)} | ${fmt(per1000(fping.cpuMs, n))} | ${fmt(per1000(warm.cpuMs, n))} | ${fmt(warm.cpuMs / fping.cpuMs, 2)} | ${fmt(per1000(cold.cpuMs, n))} | ${fmt(cold.cpuMs / fping.cpuMs, 2)} |`,
      );
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
