// Sweeps of the monitor's pinger over the addresses in a file, in one process: the first (cold:
// code not yet optimised), then, after at least 10,000 pings of warm-up, three more (warm, as in
// a monitor that has been running for a while). Prints the wall and CPU time of the sweeps
// themselves (not the process start) as one JSON line: the first, and the median warm one.
const { readFileSync } = require('node:fs');
const path = require('node:path');
const { performance } = require('node:perf_hooks');
const { Pinger } = require(path.resolve(__dirname, '../../services/monitor/dist/ping/pinger.js'));

const [file, gapMs, timeoutMs, retries] = process.argv.slice(2);
const addresses = readFileSync(file, 'utf8').split('\n').filter(Boolean);
const pinger = new Pinger({
  sessionId: 1 + Math.floor(Math.random() * 65534),
  timeoutMs: Number(timeoutMs),
  retries: Number(retries),
  packetGapMs: Number(gapMs),
  maxOutstanding: 10_000,
});

async function sweep() {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const results = await Promise.all(addresses.map((a) => pinger.ping(a)));
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { wallMs, cpuMs: (used.user + used.system) / 1000, alive: results.filter((r) => r.alive).length };
}

const median = (list, key) => [...list].sort((a, b) => a[key] - b[key])[1][key];

(async () => {
  const cold = await sweep();
  for (let pinged = addresses.length; pinged < 10_000; pinged += addresses.length) await sweep();
  const warm = [await sweep(), await sweep(), await sweep()];
  pinger.close();
  console.log(
    JSON.stringify({
      cold,
      warm: {
        wallMs: median(warm, 'wallMs'),
        cpuMs: median(warm, 'cpuMs'),
        alive: Math.min(...warm.map((w) => w.alive)),
      },
    }),
  );
})();
