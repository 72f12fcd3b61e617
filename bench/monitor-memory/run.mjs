// One monitor replica's memory at campus size: the built monitor (`node dist/main.js`) alone, with a
// stand-in for inventory's target pages on NATS, sweeping N loopback addresses by Check Now. Reports
// its resident memory with the list loaded (before any sweep) and at the sweeps' peak (VmHWM, reset
// after the load), with Node's default heap and with the heap the chart gives it: V8's old
// generation bounded at half the smallest memory limit the chart accepts for N (its NODE_OPTIONS),
// and the 1 MiB semi-spaces V8 takes where less than 1 GiB is available (a container's limit).
//
// Needs root (raw ICMP) and NATS; pings 127.40.0.1 and up. Environment variables: BENCH_SIZES
// (20000,50000,100000), BENCH_SWEEPS (3) per size and heap, BENCH_HEAPS (default,chart), NATS_URL.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { NATS_URL, root } from '../support/campus.mjs';
import { memoryMiB, resetPeakMemory, round } from '../support/measure.mjs';

const require = createRequire(import.meta.url);
const { connect, JSONCodec } = require('nats');
const jc = JSONCodec();

const SIZES = (process.env.BENCH_SIZES ?? '20000,50000,100000').split(',').map(Number);
const SWEEPS = Number(process.env.BENCH_SWEEPS ?? 3);
const HEAPS = (process.env.BENCH_HEAPS ?? 'default,chart').split(',');
const sizing = JSON.parse(
  readFileSync(path.join(root, 'deploy/helm/classroom-monitor/files/monitor-memory.json'), 'utf8'),
);
/** The smallest memory limit the chart accepts for `n` monitored addresses, in MiB. */
const chartLimitMiB = (n) => Math.ceil(sizing.baseMiB + (n * sizing.perAddressKiB) / 1024);

function preflight() {
  if (process.getuid?.() !== 0) {
    console.error('bench/monitor-memory needs root for raw ICMP sockets (or node with cap_net_raw).');
    process.exit(1);
  }
  const { status } = spawnSync('npx', ['nx', 'run', '@cm/monitor:build'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (status !== 0) throw new Error('Building the monitor failed');
}

/** Answers `inventory.equipment.targets` (Nest's request format, pages by id) with `targets`. */
function standInInventory(nc, namespace, targets) {
  const sorted = [...targets].sort((a, b) => a.equipmentId.localeCompare(b.equipmentId));
  const after = (id) => {
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (sorted[mid].equipmentId <= id) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const respond = (msg, response) => {
    const { id } = jc.decode(msg.data);
    msg.respond(jc.encode({ id, response, isDisposed: true }));
  };
  nc.subscribe(`${namespace}.inventory.equipment.targets`, {
    callback: (_error, msg) => {
      const { data } = jc.decode(msg.data);
      const limit = data.limit ?? 500;
      const start = data.after ? after(data.after) : 0;
      const items = sorted.slice(start, start + limit);
      respond(msg, { items, nextCursor: items.length === limit ? items.at(-1).equipmentId : null });
    },
  });
  for (const subject of ['inventory.monitoring.get', 'inventory.monitoring.save'])
    nc.subscribe(`${namespace}.${subject}`, { callback: (_error, msg) => respond(msg, null) });
}

async function request(nc, namespace, subject, timeout) {
  const reply = await nc.request(`${namespace}.${subject}`, jc.encode({ id: randomUUID(), data: {} }), {
    timeout,
  });
  const body = jc.decode(reply.data);
  if (body.err) throw new Error(`${subject}: ${JSON.stringify(body.err)}`);
  return body.response;
}

async function measure(nc, n, heap) {
  const namespace = `benchmem_${randomBytes(4).toString('hex')}`;
  const targets = Array.from({ length: n }, (_, i) => ({
    equipmentId: randomUUID(),
    ipAddress: `127.${40 + Math.floor(i / 62_500)}.${Math.floor(i / 250) % 250}.${(i % 250) + 1}`,
    status: 'active',
  }));
  standInInventory(nc, namespace, targets);
  const limitMiB = chartLimitMiB(n);
  const flags =
    heap === 'chart' ? [`--max-old-space-size=${Math.floor(limitMiB / 2)}`, '--max-semi-space-size=1'] : [];
  const child = spawn(process.execPath, [...flags, path.join(root, 'services/monitor/dist/main.js')], {
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      CM_NAMESPACE: namespace,
      NATS_URL,
      HTTP_PORT: '0',
      LOG_LEVEL: 'warn',
      MONITOR_ALLOWED_NETWORKS: '127.0.0.0/8',
      MONITOR_CHECK_WAIT_MS: '25000',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  // A monitor that runs out of memory ends on SIGABRT: no exit code, a signal.
  const ended = () => (child.exitCode ?? child.signalCode) !== null;
  try {
    const deadline = performance.now() + 120_000;
    for (;;) {
      if (ended())
        throw new Error(`The monitor ended (${child.exitCode ?? child.signalCode}) before listing`);
      const health = await request(nc, namespace, 'monitor.health', 5000).catch(() => null);
      if (health?.checks?.equipmentList?.detail === `${n} equipment with an address`) break;
      if (performance.now() > deadline) throw new Error(`The monitor did not list ${n} targets in time`);
      await sleep(250);
    }
    await sleep(1000);
    const listed = memoryMiB(child.pid);
    resetPeakMemory(child.pid);
    // Read now and then too: a monitor that runs out of memory takes its peak with it.
    let seen = listed;
    const sampler = setInterval(() => (seen = memoryMiB(child.pid) ?? seen), 100);
    const sweepMs = [];
    let failure = null;
    for (let i = 0; i < SWEEPS && !failure; i++) {
      const started = performance.now();
      try {
        const result = await request(nc, namespace, 'monitor.check', 60_000);
        if (result.answered !== n) failure = `sweep ${i + 1}: ${result.answered} of ${n} answered`;
      } catch (error) {
        failure = `sweep ${i + 1}: ${error.message}`;
      }
      sweepMs.push(Math.round(performance.now() - started));
    }
    clearInterval(sampler);
    const after = memoryMiB(child.pid) ?? { rss: null, peak: seen.peak };
    return {
      devices: n,
      heap: heap === 'chart' ? `chart (limit ${limitMiB}Mi: ${flags.join(' ')})` : 'Node default',
      listedMiB: listed.rss,
      peakMiB: after.peak,
      afterMiB: after.rss,
      kibPerDeviceOverListed: after.peak === null ? null : round(((after.peak - listed.rss) * 1024) / n, 2),
      sweepMs,
      failure: ended() ? `ended (${child.exitCode ?? child.signalCode}): ${failure}` : failure,
    };
  } finally {
    if (!ended()) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
    const jsm = await nc.jetstreamManager();
    for await (const stream of jsm.streams.list()) {
      const name = stream.config.name;
      if (name.startsWith(`${namespace}_`) || name.startsWith(`KV_${namespace}_`))
        await jsm.streams.delete(name).catch(() => undefined);
    }
  }
}

preflight();
const nc = await connect({ servers: NATS_URL, timeout: 5000, name: 'bench-monitor-memory' });
const rows = [];
try {
  for (const n of SIZES)
    for (const heap of HEAPS) {
      const row = await measure(nc, n, heap);
      console.log(JSON.stringify(row));
      rows.push(row);
    }
} finally {
  await nc.close();
}
console.log(
  `\nOne monitor replica sweeping N loopback addresses, ${SWEEPS} Check Nows each (Node ${process.version})`,
);
console.log(
  '| devices | heap | RSS listed MiB | sweep peak MiB | after MiB | peak over listed, KiB/device | sweeps ms |',
);
console.log('|---|---|---|---|---|---|---|');
for (const r of rows)
  console.log(
    `| ${r.devices} | ${r.heap} | ${r.listedMiB} | ${r.peakMiB} | ${r.afterMiB} | ${r.kibPerDeviceOverListed} | ${r.sweepMs.join(', ')}${r.failure ? ` (${r.failure})` : ''} |`,
  );
process.exit(rows.some((r) => r.failure) ? 1 : 0);
