// Small measuring helpers for the benchmarks: percentiles, a process's CPU time from /proc, the
// PostgreSQL backends serving a process's connections, and COPY into an unlogged table as a floor.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

/** Nearest-rank percentile of an ascending list. */
export const percentile = (sorted, p) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN;

export const median = (values) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );

export const round = (value, decimals = 1) =>
  Number.isFinite(value) ? Math.round(value * 10 ** decimals) / 10 ** decimals : null;

/** The p50, p95 and largest of a list of times in ms, in whole ms. */
export function latencyFigures(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    p50Ms: round(percentile(sorted, 50), 0),
    p95Ms: round(percentile(sorted, 95), 0),
    maxMs: round(sorted.at(-1), 0),
  };
}

const CLOCK_TICKS_PER_S = Number(
  spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim() || 100,
);

/** User + system CPU time of a process so far, in milliseconds (0 when it is gone). */
export function cpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces: count fields after its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const utime = Number(fields[11]);
    const stime = Number(fields[12]);
    return ((utime + stime) * 1000) / CLOCK_TICKS_PER_S;
  } catch {
    return 0;
  }
}

/** Resident memory of a process now and at its peak, in MiB (null when it is gone). */
export function memoryMiB(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rss: Math.round(kb('VmRSS') / 1024), peak: Math.round(kb('VmHWM') / 1024) };
  } catch {
    return null;
  }
}

/**
 * Starts a process's peak resident memory (VmHWM) afresh from what it holds now (Linux's
 * /proc/<pid>/clear_refs, as root or as its owner); false when it cannot.
 */
export function resetPeakMemory(pid) {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** The local ports of a process's established TCP connections to `port` (needs root for ss -p). */
function clientPorts(pid, port) {
  const out = spawnSync('ss', ['-tnpH', 'state', 'established', `( dport = :${port} )`], {
    encoding: 'utf8',
  }).stdout;
  const ports = [];
  for (const line of (out ?? '').split('\n')) {
    if (!line.includes(`pid=${pid},`)) continue;
    const local = line.trim().split(/\s+/)[2];
    ports.push(Number(local.slice(local.lastIndexOf(':') + 1)));
  }
  return ports;
}

/** PostgreSQL backend pids that serve the connections of process `pid` (same machine). */
export async function backendPids(db, pid, port = 5432) {
  const ports = clientPorts(pid, port);
  if (ports.length === 0) return [];
  const { rows } = await db.query(
    `SELECT pid FROM pg_stat_activity WHERE client_addr = '127.0.0.1' AND client_port = ANY($1::int[])`,
    [ports],
  );
  return rows.map((r) => r.pid);
}

/** CPU ms of each backend serving `pid`'s connections, by backend pid. */
export async function backendCpu(db, pid) {
  const pids = await backendPids(db, pid);
  return new Map(pids.map((p) => [p, cpuMs(p)]));
}

/** CPU the backends spent between two `backendCpu` snapshots (a backend new in `after` counts whole). */
export function backendCpuDelta(before, after) {
  let sum = 0;
  for (const [pid, ms] of after) sum += ms - (before.get(pid) ?? 0);
  return sum;
}

/**
 * Time PostgreSQL takes to COPY `rows` rows of (uuid, timestamptz, text, real) from STDIN into an
 * UNLOGGED table, as psql's `\timing` reports it for the COPY statement alone (not psql's start).
 * pg-copy-streams is inventory's dependency, not the benchmarks': psql sends the data.
 */
export function copyFloorMs({ databaseUrl, schema, rows, file }) {
  const at = Date.now();
  const lines = [];
  for (let i = 0; i < rows; i++) {
    lines.push(
      `${randomUUID()}\t${new Date(at + i).toISOString()}\tactive\t${(0.02 + (i % 50) / 1000).toFixed(3)}`,
    );
  }
  writeFileSync(
    file,
    [
      'SET client_min_messages = warning;',
      `CREATE SCHEMA IF NOT EXISTS ${schema};`,
      `CREATE UNLOGGED TABLE IF NOT EXISTS ${schema}.copy_floor (equipment_id uuid, checked_at timestamptz, status text, rtt_ms real);`,
      `TRUNCATE ${schema}.copy_floor;`,
      '\\timing on',
      `COPY ${schema}.copy_floor FROM STDIN;`,
      ...lines,
      '\\.',
      '\\timing off',
      `TRUNCATE ${schema}.copy_floor;`,
      '',
    ].join('\n'),
  );
  const result = spawnSync('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', databaseUrl, '-f', file], {
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`psql COPY failed: ${result.stderr || result.error}`);
  const times = [...result.stdout.matchAll(/Time: ([\d.]+) ms/g)].map((m) => Number(m[1]));
  if (times.length !== 1) throw new Error(`psql COPY: expected one timing, got: ${result.stdout}`);
  return times[0];
}

export function loadAverage() {
  try {
    return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).map(Number);
  } catch {
    return null;
  }
}

/** Asks `test` every `everyMs` until it gives a truthy value, which it answers; throws after `timeoutMs`. */
export async function waitFor(what, test, { timeoutMs, everyMs = 500 }) {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await test();
    if (value) return value;
    if (performance.now() > deadline)
      throw new Error(`Timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await sleep(everyMs);
  }
}
