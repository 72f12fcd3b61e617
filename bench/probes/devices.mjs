// A child process of bench/probes: `count` simulated devices of one kind (`pjlink` or `snmp`), each
// on its own loopback address at its protocol's port, from libs/simulators. Apart from the monitor,
// so that what the devices spend is not counted as its CPU. Prints one JSON line when every device
// listens, then runs until its parent ends it (or its standard input closes).
//
// Usage: node devices.mjs <pjlink|snmp> <count>
import { createRequire } from 'node:module';
import path from 'node:path';
import process from 'node:process';
import { root } from '../support/campus.mjs';
import { addressOf } from './layout.mjs';

const require = createRequire(import.meta.url);
const { startPjlinkSimulator, startSnmpSimulator } = require(
  path.join(root, 'libs/simulators/dist/index.js'),
);

const [kind, countText] = process.argv.slice(2);
const count = Number(countText);

/** Half the projectors class 2 (14 questions a probe), half class 1 (9); one in 20 with a lamp warning. */
function pjlink(k) {
  return startPjlinkSimulator({
    host: addressOf('pjlink', k),
    port: 4352,
    class: k % 2 === 0 ? 2 : 1,
    ...(k % 20 === 0 ? { errors: { lamp: 'warning' } } : {}),
  });
}

/** Two interfaces; on one agent in 10 the second is down while enabled (a finding). */
function snmp(k) {
  return startSnmpSimulator({
    host: addressOf('snmp', k),
    port: 161,
    community: 'public',
    sysDescr: 'NEC MultiSync V554 firmware R1.305',
    sysName: `display-${k}`,
    uptimeSeconds: 86_400 + k,
    interfaces: [{ name: 'eth0' }, { name: 'eth1', oper: k % 10 === 0 ? 'down' : 'up' }],
  });
}

async function main() {
  if (kind !== 'pjlink' && kind !== 'snmp') throw new Error(`Unknown device kind ${kind}`);
  const start = kind === 'pjlink' ? pjlink : snmp;
  const started = performance.now();
  for (let k = 0; k < count; k++) await start(k);
  const rssMiB = Math.round(process.memoryUsage().rss / 1048576);
  console.log(JSON.stringify({ kind, ready: count, ms: Math.round(performance.now() - started), rssMiB }));
  process.stdin.on('end', () => process.exit(0));
  process.stdin.resume();
  process.on('SIGTERM', () => process.exit(0));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
