// The inventory CSV (issue 24): a file of BENCH_ROWS (10000) lines — 20 buildings of 25 rooms, each
// device with its own loopback address — previewed (?dryRun=true), applied, previewed again (all
// unchanged) and exported, through the gateway of a whole system started in a fresh namespace. Also
// how long until the monitor's equipment events of the import are all on JetStream (the outbox
// drained). Reference in the same run: PostgreSQL's COPY of as many rows into an UNLOGGED table.
// The issue's target: preview and apply of 10,000 lines each under 10 s on this machine.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  benchDatabase,
  buildServices,
  DATABASE_URL,
  NATS_URL,
  runBench,
  root,
  signIn,
  stackEnv,
  tearDown,
} from '../support/campus.mjs';
import { copyFloorMs, cpuMs, loadAverage, round } from '../support/measure.mjs';

const require = createRequire(import.meta.url);
const { connect } = require('nats');
const { startStack } = require(path.join(root, 'scripts/stack.cjs'));
const { inventoryCsvColumns } = require(path.join(root, 'libs/contracts/dist/index.js'));

const ROWS = Number(process.env.BENCH_ROWS ?? 10_000);
const BUILDINGS = 20;
const ROOMS_PER_BUILDING = 25;
const TARGET_S = 10;

const namespace = `bench_${randomBytes(4).toString('hex')}`;
const adminPassword = randomBytes(12).toString('base64url');

function campusCsv() {
  const at = (c) => inventoryCsvColumns.indexOf(c);
  const lines = [inventoryCsvColumns.join(',')];
  const perRoom = Math.ceil(ROWS / (BUILDINGS * ROOMS_PER_BUILDING));
  for (let i = 0; i < ROWS; i++) {
    const room = Math.floor(i / perRoom);
    const cells = inventoryCsvColumns.map(() => '');
    cells[at('building_name')] = `Hall ${String(room % BUILDINGS).padStart(2, '0')}`;
    cells[at('building_description')] = 'Imported for the benchmark';
    cells[at('room_name')] = `Room ${Math.floor(room / BUILDINGS)}`;
    cells[at('room_type')] = 'Classroom';
    cells[at('room_floor')] = String((room % 4) + 1);
    cells[at('room_capacity')] = '30';
    cells[at('equipment_name')] = `Display ${i}`;
    cells[at('equipment_model')] = 'Model X';
    cells[at('equipment_serial_number')] = `SN-${String(i).padStart(6, '0')}`;
    cells[at('equipment_ip_address')] = `127.30.${Math.floor(i / 250)}.${(i % 250) + 1}`;
    cells[at('equipment_notes')] = i % 7 === 0 ? '"Ceiling mount, left"' : '';
    lines.push(cells.join(','));
  }
  return lines.join('\r\n') + '\r\n';
}

async function post(url, cookie, file, dryRun) {
  const form = new FormData();
  form.append('file', new Blob([file], { type: 'text/csv' }), 'campus.csv');
  const started = performance.now();
  const res = await fetch(`${url}/api/inventory/import${dryRun ? '?dryRun=true' : ''}`, {
    method: 'POST',
    headers: { cookie },
    body: form,
  });
  const body = await res.json();
  const seconds = (performance.now() - started) / 1000;
  if (res.status !== 200)
    throw new Error(`The import answered ${res.status}: ${JSON.stringify(body).slice(0, 500)}`);
  return { seconds, body };
}

const summary = (b) =>
  ['buildings', 'rooms', 'equipment']
    .map((k) => `${k} ${b[k].create}/${b[k].update}/${b[k].unchanged}`)
    .join(', ');

async function equipmentEvents(jsm) {
  const info = await jsm.streams.info(`${namespace}_EQUIPMENT`).catch(() => null);
  return info?.state.messages ?? 0;
}

async function main() {
  buildServices();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cm-bench-'));
  const env = stackEnv(namespace, adminPassword, { MONITOR_ALLOWED_NETWORKS: '127.0.0.0/8' });
  const db = await benchDatabase();
  let stack;
  let nc;
  await db.connect();
  try {
    stack = await startStack({ env, port: 0, ephemeralPorts: true, dataDir });
    nc = await connect({ servers: NATS_URL, timeout: 5000 });
    const jsm = await nc.jetstreamManager({ timeout: 5000 });
    const cookie = await signIn(stack.url, 'admin', adminPassword);
    const file = campusCsv();
    const pid = (name) => stack.children.get(name)?.pid;
    const cpu = () => ({ gateway: cpuMs(pid('gateway')), inventory: cpuMs(pid('inventory')) });

    const results = [];
    const measure = async (name, dryRun) => {
      const before = cpu();
      const { seconds, body } = await post(stack.url, cookie, file, dryRun);
      const after = cpu();
      results.push({
        name,
        seconds,
        counts: summary(body),
        errors: body.errorCount,
        cpu: `gateway ${round((after.gateway - before.gateway) / 1000)} s, inventory ${round((after.inventory - before.inventory) / 1000)} s`,
      });
      return body;
    };
    const eventsBefore = await equipmentEvents(jsm);
    await measure(`preview, ${ROWS} new lines`, true);
    await measure(`apply, ${ROWS} new lines`, false);
    const applied = performance.now();
    let drained = null;
    while (performance.now() - applied < 120_000) {
      if ((await equipmentEvents(jsm)) - eventsBefore >= ROWS) {
        drained = (performance.now() - applied) / 1000;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await measure(`preview, ${ROWS} unchanged lines`, true);
    await measure(`apply, ${ROWS} unchanged lines`, false);

    const exportStarted = performance.now();
    const exported = await (
      await fetch(`${stack.url}/api/inventory/export.csv`, { headers: { cookie } })
    ).text();
    const exportSeconds = (performance.now() - exportStarted) / 1000;

    const copyMs = copyFloorMs({
      databaseUrl: DATABASE_URL,
      schema: `"${namespace}_bench"`,
      rows: ROWS,
      file: path.join(dataDir, 'copy.sql'),
    });

    console.log(
      `\n${ROWS} lines, ${(file.length / 1e6).toFixed(2)} MB; node ${process.version}; load ${loadAverage()?.join(' ')}`,
    );
    console.log('| step | seconds | under 10 s | create/update/unchanged | errors | CPU |');
    console.log('|---|---|---|---|---|---|');
    for (const r of results) {
      console.log(
        `| ${r.name} | ${round(r.seconds, 2)} | ${r.seconds < TARGET_S ? 'yes' : 'NO'} | ${r.counts} | ${r.errors} | ${r.cpu} |`,
      );
    }
    console.log(
      `| export (${exported.split('\r\n').length - 2} lines, ${(exported.length / 1e6).toFixed(2)} MB) | ${round(exportSeconds, 2)} | | | | |`,
    );
    console.log(
      `\nequipment events on JetStream for the monitor, after the apply answered: ${drained === null ? 'not all within 120 s' : `${round(drained, 2)} s`}`,
    );
    console.log(`reference: COPY of ${ROWS} rows into an UNLOGGED table, ${round(copyMs)} ms`);
    // The target is the issue's, for 10,000 lines; larger files are measured, not judged.
    const slow = results.filter((r) => r.seconds >= TARGET_S && r.name.includes('new'));
    if (ROWS <= 10_000 && slow.length) process.exitCode = 1;
  } finally {
    await nc?.close();
    await tearDown({ stack, db, namespace, dataDir });
  }
}

runBench(main);
