// Inventory alone under bench/api's four reads (list of buildings, a building, a building's rooms,
// a room), sent straight over NATS at a fixed rate: its CPU per message, without the gateway, auth
// or the load generator's closed loop in the figure. A fixed rate gives every run the same
// arrivals; on a shared machine this is the steadier measure of the service's own per-message cost.
// Reference in the same run: bench/api's floor query process (nats.js and a pg pool running the same
// SQL, nothing else) under the same reads at the same rate.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import {
  benchDatabase,
  buildServices,
  NATS_URL,
  root,
  runBench,
  seedCampus,
  stackEnv,
  tearDown,
} from '../support/campus.mjs';
import { cpuMs } from '../support/measure.mjs';

const require = createRequire(import.meta.url);
const { startStack } = require(path.join(root, 'scripts/stack.cjs'));
const { connect, JSONCodec } = require('nats');

/** Messages per second, and for how long (after a 3 s warm-up). */
const RATE = Number(process.env.BENCH_RATE ?? 400);
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 20);

/** Sends `calls` in turn at RATE for `seconds`; resolves once every reply (or failure) is in. */
async function drive(calls, seconds) {
  let sent = 0;
  let settled = 0;
  let errors = 0;
  const started = Date.now();
  await new Promise((resolve) => {
    const timer = setInterval(() => {
      const due = Math.floor(((Date.now() - started) / 1000) * RATE);
      while (sent < due) {
        calls[sent++ % calls.length]().then(
          () => settled++,
          (error) => {
            if (errors++ === 0) console.error(error);
            settled++;
          },
        );
      }
      if (Date.now() - started >= seconds * 1000) {
        clearInterval(timer);
        resolve();
      }
    }, 5);
  });
  while (settled < sent) await new Promise((resolve) => setTimeout(resolve, 10));
  return { sent, errors };
}

/** A warm-up, then `calls` at RATE for DURATION_S: the CPU per message of the process `pid`. */
async function measure(calls, pid) {
  await drive(calls, 3);
  const before = cpuMs(pid);
  const { sent, errors } = await drive(calls, DURATION_S);
  return { sent, errors, usPerMessage: Math.round((1000 * (cpuMs(pid) - before)) / sent) };
}

/** bench/api's floor query process on its own, once it says it is ready. */
function startFloorQuery(env) {
  const child = spawn(process.execPath, [path.join(root, 'bench/api/floor-server.mjs')], {
    env: { ...process.env, ...env, NATS_URL, FLOOR_ROLE: 'query' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`The floor's query process exited with ${code}`)));
    child.stdout.once('data', () => {
      child.removeAllListeners('exit');
      resolve(child);
    });
  });
}

async function main() {
  buildServices();
  const { RpcClient } = require(path.join(root, 'libs/platform/dist'));
  const { messages } = require(path.join(root, 'libs/contracts'));
  const namespace = `bench_${randomBytes(4).toString('hex')}`;
  const schema = `"${namespace}_inventory"`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cm-bench-'));
  const db = await benchDatabase();
  await db.connect();
  let stack;
  let rpc;
  let floor;
  let nc;
  try {
    const env = stackEnv(namespace, randomBytes(12).toString('base64url'));
    stack = await startStack({ env, port: 0, ephemeralPorts: true, dataDir });
    await seedCampus(db, schema, { buildings: 50, roomsPerBuilding: 20, equipmentPerRoom: 5 });
    const ids = async (table) => (await db.query(`SELECT id FROM ${schema}.${table}`)).rows.map((r) => r.id);
    const buildings = await ids('buildings');
    const rooms = await ids('rooms');
    const any = (list) => list[Math.floor(Math.random() * list.length)];
    rpc = new RpcClient({ namespace, servers: NATS_URL, timeoutMs: 10_000, name: 'bench-inventory-reads' });
    const calls = [
      () => rpc.send(messages.inventory.listBuildings),
      () => rpc.send(messages.inventory.getBuilding, { id: any(buildings) }),
      () => rpc.send(messages.inventory.listRooms, { buildingId: any(buildings) }),
      () => rpc.send(messages.inventory.getRoom, { id: any(rooms) }),
    ];
    const inventory = await measure(calls, stack.children.get('inventory').pid);
    await stack.stop();
    stack = undefined;

    floor = await startFloorQuery(env);
    nc = await connect({ servers: NATS_URL, name: 'bench-inventory-reads' });
    const json = JSONCodec();
    const subject = `${namespace}.bench.floor.query`;
    const ask = (index, id) => async () => {
      const reply = json.decode(
        (await nc.request(subject, json.encode({ index, id }), { timeout: 10_000 })).data,
      );
      if (reply.status !== 200) throw new Error(`The floor answered ${reply.status}`);
    };
    const reference = await measure(
      [ask(0), () => ask(1, any(buildings))(), () => ask(2, any(buildings))(), () => ask(3, any(rooms))()],
      floor.pid,
    );
    console.log(
      `${RATE} messages per second for ${DURATION_S} s (bench/api's four reads in turn), node ${process.version}`,
    );
    console.log('| process | messages | errors | µs of CPU per message |');
    console.log('|---|---|---|---|');
    for (const [name, r] of [
      ['inventory', inventory],
      ['floor query process', reference],
    ])
      console.log(`| ${name} | ${r.sent} | ${r.errors} | ${r.usPerMessage} |`);
    console.log(
      `\ninventory ÷ floor: ${(inventory.usPerMessage / reference.usPerMessage).toFixed(2)} (load average ${loadavg()[0].toFixed(1)})`,
    );
    if (inventory.errors || reference.errors) process.exitCode = 1;
  } finally {
    await rpc?.onApplicationShutdown();
    await nc?.close();
    floor?.kill('SIGTERM');
    await tearDown({ stack, db, namespace, dataDir });
  }
}

runBench(main);
