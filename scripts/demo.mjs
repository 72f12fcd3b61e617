// `npm run demo`, beside a running `npm start`: a demo building whose devices are simulators on
// loopback addresses (PJLink projectors, an SNMP display, a Q-SYS core, an Extron switcher, a web
// panel, a control processor), probed by the monitor like real ones. The devices age while it runs
// — lamps wear, a filter clogs, the display warms and restarts, the core faults for a minute — so
// every health state shows within minutes. Ctrl-C stops the simulators; the building stays until
// it is deleted in the app.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

const { values: args } = parseArgs({
  options: {
    url: { type: 'string', default: process.env.DEMO_URL ?? `http://127.0.0.1:${process.env.PORT ?? 8080}` },
    // Every device is probed this often, so a change shows within the minute (the product's default is 300 s).
    interval: { type: 'string', default: '30' },
  },
});
const baseUrl = args.url.replace(/\/$/, '');
const intervalSeconds = Number(args.interval);
const BUILDING = 'Demo Hall';
/** Loopback addresses of their own, so each simulator can listen on its protocol's usual port. */
const host = (n) => `127.0.77.${n}`;

function fail(message) {
  console.error(`\n${message}\n`);
  process.exit(1);
}

function credentials() {
  const username = process.env.DEMO_USERNAME ?? process.env.ADMIN_USERNAME ?? 'admin';
  const file = path.join(root, '.data', 'admin-password');
  const password =
    process.env.DEMO_PASSWORD ??
    process.env.ADMIN_PASSWORD ??
    (existsSync(file) ? readFileSync(file, 'utf8').trim() : undefined);
  if (!password)
    fail(
      `No administrator password: .data/admin-password is gone (it is deleted once the password is changed).\n` +
        `Run it as DEMO_USERNAME=<administrator> DEMO_PASSWORD=<password> npm run demo`,
    );
  return { username, password };
}

async function api(cookie, method, route, body) {
  const res = await fetch(`${baseUrl}${route}`, {
    method,
    headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${route} answered ${res.status}: ${text}`);
  return text ? JSON.parse(text) : undefined;
}

async function signIn() {
  const { username, password } = credentials();
  let res;
  try {
    res = await fetch(`${baseUrl}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password }),
      signal: AbortSignal.timeout(30_000),
    });
  } catch (error) {
    fail(
      `Classroom Monitor does not answer at ${baseUrl} (${error.cause?.code ?? error.message}). Start it with npm start.`,
    );
  }
  if (!res.ok) fail(`Signing in as "${username}" answered ${res.status}: ${await res.text()}`);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .find((c) => c.startsWith('cm.sid='));
  if (!cookie) fail('Signing in set no session cookie.');
  return cookie;
}

/** The simulators, each with the equipment that watches it. */
async function startDevices(sim) {
  const every = { intervalSeconds };
  const projector = await sim.startPjlinkSimulator({
    host: host(1),
    port: 4352,
    class: 2,
    power: 'on',
    lamps: [{ hours: 1200, on: true }],
    filterHours: 300,
    manufacturer: 'Epson',
    model: 'EB-L1100U',
    serial: 'X4DM0012',
    firmware: '1.02',
    name: 'Hall projector',
    replacementLamp: 'ELPLP95',
    replacementFilter: 'ELPAF60',
  });
  const worn = await sim.startPjlinkSimulator({
    host: host(2),
    port: 4352,
    class: 1,
    password: 'demo',
    power: 'on',
    lamps: [{ hours: 2900, on: true }],
    manufacturer: 'NEC',
    model: 'NP-P554U',
    name: 'Seminar projector',
  });
  const locked = await sim.startPjlinkSimulator({
    host: host(3),
    port: 4352,
    class: 1,
    password: 'changed-by-vendor',
    power: 'standby',
    lamps: [{ hours: 800, on: false }],
    manufacturer: 'Panasonic',
    model: 'PT-VMZ60',
    name: 'Lab projector',
  });
  const display = await sim.startSnmpSimulator({
    host: host(5),
    port: 16161,
    community: 'demo-read',
    sysDescr: 'Samsung QM85R display, firmware V1.12',
    sysName: 'Hall display',
    interfaces: [{ name: 'LAN' }, { name: 'HDMI 1' }],
    extraOids: { '1.3.6.1.4.1.8072.9999.1.0': 38 },
  });
  const core = await sim.startQsysSimulator({
    host: host(6),
    port: 1710,
    state: 'Active',
    status: { code: 0, string: 'OK' },
    platform: 'Core 110f',
    designName: 'Demo Hall AV',
  });
  const switcher = await sim.startExtronSimulator({
    host: host(7),
    port: 2001,
    model: 'DXP 84 HD 4K PLUS',
    firmware: '1.04',
    partNumber: '60-1495-01',
  });
  const panel = await sim.startHttpSimulator({
    host: host(8),
    port: 8443,
    status: 200,
    tls: { expiresInDays: 12 },
  });
  const control = await sim.startTcpSimulator({ host: host(9), port: 41794 });
  const simulators = { projector, worn, locked, display, core, switcher, panel, control };
  const rooms = {
    'Lecture Hall 101': [
      { name: 'Hall projector', type: 'Projector', ipAddress: host(1), probe: { type: 'pjlink', ...every } },
      {
        name: 'Hall display',
        type: 'Display',
        ipAddress: host(5),
        probe: {
          type: 'snmp',
          port: 16161,
          version: '2c',
          ...every,
          secrets: { community: 'demo-read' },
          oids: [
            {
              oid: '1.3.6.1.4.1.8072.9999.1.0',
              label: 'Panel temperature',
              operator: '>',
              warning: 45,
              error: 55,
            },
          ],
        },
      },
      { name: 'Hall DSP', type: 'DSP', ipAddress: host(6), probe: { type: 'qsys', ...every } },
      {
        name: 'Hall switcher',
        type: 'Matrix switcher',
        ipAddress: host(7),
        probe: { type: 'extron', port: 2001, ...every },
      },
    ],
    'Seminar Room 102': [
      {
        name: 'Seminar projector',
        type: 'Projector',
        ipAddress: host(2),
        probe: { type: 'pjlink', ...every, secrets: { password: 'demo' } },
      },
      {
        name: 'Room panel',
        type: 'Touch panel',
        ipAddress: host(8),
        probe: { type: 'http', port: 8443, https: true, ...every },
      },
      {
        name: 'Control processor',
        type: 'Control',
        ipAddress: host(9),
        probe: { type: 'tcp', port: 41794, ...every },
      },
    ],
    'Lab 103': [
      {
        name: 'Lab projector',
        type: 'Projector',
        ipAddress: host(3),
        probe: { type: 'pjlink', ...every, secrets: { password: 'demo' } },
      },
      // Answers ping (every loopback address does) but nothing listens for PJLink.
      { name: 'Spare projector', type: 'Projector', ipAddress: host(4), probe: { type: 'pjlink', ...every } },
    ],
  };
  return { simulators, rooms };
}

const roomDetails = {
  'Lecture Hall 101': { type: 'Lecture Hall', floor: '1', capacity: 240 },
  'Seminar Room 102': { type: 'Conference Room', floor: '1', capacity: 24 },
  'Lab 103': { type: 'Physics Lab', floor: '1', capacity: 32 },
};

async function seed(cookie, rooms) {
  const buildings = await api(cookie, 'GET', '/api/buildings');
  if (buildings.some((b) => b.name === BUILDING)) {
    console.log(`"${BUILDING}" is there from an earlier run: its devices are back.`);
    return;
  }
  const building = await api(cookie, 'POST', '/api/buildings', {
    name: BUILDING,
    description: 'Simulated devices of npm run demo, on loopback addresses',
  });
  for (const [roomName, equipment] of Object.entries(rooms)) {
    const room = await api(cookie, 'POST', `/api/buildings/${building.id}/rooms`, {
      name: roomName,
      ...roomDetails[roomName],
    });
    for (const item of equipment) await api(cookie, 'POST', `/api/rooms/${room.id}/equipment`, item);
  }
  console.log(`Created "${BUILDING}" with ${Object.keys(rooms).length} rooms.`);
}

/** What happens to the devices as minutes pass, so every health state comes round. */
function age({ projector, worn, display, core, switcher }) {
  let tick = 0;
  return setInterval(() => {
    tick += 1;
    projector.advanceHours(6);
    worn.advanceHours(2);
    display.set('1.3.6.1.4.1.8072.9999.1.0', 38 + (tick % 30));
    if (tick % 30 === 0) display.reboot();
    if (tick === 12) projector.state.errors.filter = 'warning';
    if (tick === 18) switcher.update({ firmware: '1.05' });
    if (tick % 40 === 20) core.update({ status: { code: 2, string: 'Fault - Amplifier 2 missing' } });
    if (tick % 40 === 26) core.update({ status: { code: 0, string: 'OK' } });
  }, 10_000);
}

spawnSync(
  'npx',
  ['nx', 'run-many', '-t', 'build', '-p', '@cm/contracts', '@cm/simulators', '--output-style=static'],
  {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, NX_DAEMON: 'false' },
  },
);
const sim = require(path.join(root, 'libs/simulators/dist/index.js'));
const cookie = await signIn();
const { simulators, rooms } = await startDevices(sim).catch((error) =>
  fail(`Could not start the simulators: ${error.message}`),
);
await seed(cookie, rooms);
const status = await api(cookie, 'GET', '/api/monitoring/status');
if (!status.isRunning) {
  await api(cookie, 'POST', '/api/monitoring/start');
  console.log('Started monitoring.');
}
const ageing = age(simulators);
console.log(
  `\n  Demo devices are running on 127.0.77.1–9 and probed every ${intervalSeconds} s.\n` +
    `  Open ${baseUrl}, building "${BUILDING}". Ctrl-C stops the devices.\n`,
);
process.on('SIGINT', async () => {
  clearInterval(ageing);
  await Promise.allSettled(Object.values(simulators).map((s) => s.close()));
  process.exit(0);
});
