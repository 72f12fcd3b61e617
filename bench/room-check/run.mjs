// "Check this room now" on the real stack (issue 37): how long a technician waits for the room's
// answer, with every device answering and with one projector that takes the connection and never
// replies (a hung control port). Starts its own stack in a fresh namespace, a room of simulated
// PJLink projectors and plain pinged devices on loopback, and times POST /api/rooms/:id/check from
// the client (request sent → answer read), monitoring stopped. The reference is the budget the
// answer keeps to (ROOM_CHECK_ANSWER_MS, 2 s); before the budget, a hung probe held the answer
// until its timeout (1.5 s) plus the runner's grace (1 s).
//
// Loopback only: the devices listen on and are pinged at 127.0.49.x. Needs root (raw ICMP).
// Environment: BENCH_CHECKS (20 per phase), BENCH_PROJECTORS (4), BENCH_PLAIN (6), DATABASE_URL,
// NATS_URL.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  benchDatabase,
  buildServices,
  callApi,
  root,
  runBench,
  signIn,
  stackEnv,
  tearDown,
} from '../support/campus.mjs';
import { latencyFigures, loadAverage, round, waitFor } from '../support/measure.mjs';

const require = createRequire(import.meta.url);
const { startStack } = require(path.join(root, 'scripts/stack.cjs'));
const CHECKS = Number(process.env.BENCH_CHECKS ?? 20);
const PROJECTORS = Number(process.env.BENCH_PROJECTORS ?? 4);
const PLAIN = Number(process.env.BENCH_PLAIN ?? 6);
const log = (text) => console.log(`[room-check] ${text}`);

async function main() {
  buildServices();
  const { startPjlinkSimulator } = require(path.join(root, 'libs/simulators/dist/index.js'));
  const { ROOM_CHECK_ANSWER_MS } = require(path.join(root, 'libs/contracts/dist/index.js'));
  const namespace = `bench_roomcheck_${randomBytes(3).toString('hex')}`;
  const adminPassword = randomBytes(12).toString('hex');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cm-bench-room-check-'));
  const db = await benchDatabase();
  const projectors = [];
  let stack;
  try {
    await db.connect();
    stack = await startStack({
      env: stackEnv(namespace, adminPassword, { MONITOR_ALLOWED_NETWORKS: '127.0.0.0/8' }),
      port: 0,
      ephemeralPorts: true,
      dataDir,
    });
    const cookie = await signIn(stack.url, 'admin', adminPassword);
    const api = (method, url, body) => callApi(stack.url, cookie, method, url, body);
    const building = await api('POST', '/api/buildings', { name: 'Bench Hall' });
    const room = await api('POST', `/api/buildings/${building.id}/rooms`, {
      name: 'B-1',
      type: 'Classroom',
      floor: '1',
    });
    for (let i = 0; i < PROJECTORS; i++) {
      const host = `127.0.49.${i + 1}`;
      const device = await startPjlinkSimulator({ host, class: 2 });
      projectors.push(device);
      await api('POST', `/api/rooms/${room.id}/equipment`, {
        name: `Projector ${i + 1}`,
        ipAddress: host,
        probe: { type: 'pjlink', port: device.port, intervalSeconds: 3600 },
      });
    }
    for (let i = 0; i < PLAIN; i++)
      await api('POST', `/api/rooms/${room.id}/equipment`, {
        name: `Display ${i + 1}`,
        ipAddress: `127.0.49.${100 + i}`,
      });
    const check = async () => {
      const started = performance.now();
      const result = await api('POST', `/api/rooms/${room.id}/check`);
      return { ms: performance.now() - started, result };
    };
    await waitFor(
      'the monitor to load the probes',
      async () => (await check()).result.equipment.filter((e) => e.probe).length === PROJECTORS,
      { timeoutMs: 60_000 },
    );

    const phase = async (name) => {
      const times = [];
      let pending = 0;
      for (let i = 0; i < CHECKS; i++) {
        const { ms, result } = await check();
        times.push(ms);
        pending += result.equipment.filter((e) => e.pending).length;
      }
      const figures = {
        phase: name,
        checks: CHECKS,
        ...latencyFigures(times),
        withinBudget: times.filter((t) => t <= ROOM_CHECK_ANSWER_MS).length,
        pendingPerAnswer: round(pending / CHECKS, 2),
      };
      log(JSON.stringify(figures));
      return figures;
    };
    const loadBefore = loadAverage();
    const all = await phase('every device answers');
    // The first projector takes connections and never replies from now on.
    projectors[0].holdAnswers();
    const hung = await phase('one projector hung');
    log(
      JSON.stringify({
        devices: PROJECTORS + PLAIN,
        budgetMs: ROOM_CHECK_ANSWER_MS,
        loadAverage: { before: loadBefore, after: loadAverage() },
        ratios: {
          hungP95ToBudget: round(hung.p95Ms / ROOM_CHECK_ANSWER_MS, 2),
          allP95ToBudget: round(all.p95Ms / ROOM_CHECK_ANSWER_MS, 2),
        },
      }),
    );
  } finally {
    for (const device of projectors) await device.close().catch(() => undefined);
    await tearDown({ stack, db, namespace, dataDir });
  }
}

runBench(main);
