// Changes pushed to open screens (GET /api/events): how long after a person's edit the other
// staff who have the room's screen open see it. Starts its own stack in a fresh namespace, signs
// in BENCH_VIEWERS people, each with the live stream open as the web app holds it, and one editor
// who marks a projector down and up again BENCH_CHANGES times. For each viewer and change it times,
// from the editor's request being sent (its answer may come after the event): the
// `equipment.status` event arriving, and the rooms list that event has the app refetch (after the
// app's coalescing delay) answered with the new count, which is when the Rooms screen shows it.
// The reference is the promise the browser test (e2e/src/web-live.e2e-spec.ts) names without
// timing it: an open screen shows a committed change within 2 s.
//
// Then rights lost on another gateway replica: a second gateway joins the stack, and
// BENCH_REVOCATIONS administrators, each served once on it, are demoted through the first; then as
// many people served on it sign out through the first. Each is timed from the change being sent
// to the second replica's first refusal (403, 401), against the promise the integration test
// (services/gateway/test/revocation.int-spec.ts) checks without timing: within a second, where
// without the notices it would take up to what a replica keeps (5 s).
//
// Loopback only. Environment: BENCH_VIEWERS (10), BENCH_CHANGES (20), BENCH_REVOCATIONS (10),
// DATABASE_URL, NATS_URL.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { request } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  benchDatabase,
  buildServices,
  callApi,
  root,
  runBench,
  signIn,
  stackEnv,
  startGatewayReplica,
  tearDown,
} from '../support/campus.mjs';
import { latencyFigures, loadAverage, round } from '../support/measure.mjs';

const require = createRequire(import.meta.url);
const { startStack } = require(path.join(root, 'scripts/stack.cjs'));
const VIEWERS = Number(process.env.BENCH_VIEWERS ?? 10);
const CHANGES = Number(process.env.BENCH_CHANGES ?? 20);
const REVOCATIONS = Number(process.env.BENCH_REVOCATIONS ?? 10);
const PROMISE_MS = 2000;
const REVOCATION_PROMISE_MS = 1000;
/** What the web app waits before it refetches what events marked stale (web/src/lib/live-events.ts). */
const COALESCE_MS = 100;
/** How long one change may take to reach every viewer before the bench calls it lost. */
const LOST_AFTER_MS = 30_000;
const log = (text) => console.log(`[live] ${text}`);

/**
 * The live stream as the web app's EventSource reads it: `onEvent(name, data)` for each event.
 * Resolves once the server's `ready` event has arrived.
 */
function openStream(base, cookie, onEvent) {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({
      hostname,
      port,
      path: '/api/events',
      headers: { accept: 'text/event-stream', cookie },
      timeout: LOST_AFTER_MS,
    });
    req.on('timeout', () => req.destroy(new Error('The live stream did not answer')));
    req.on('error', reject);
    req.on('response', (res) => {
      if (res.statusCode !== 200) return reject(new Error(`GET /api/events answered ${res.statusCode}`));
      // Open for the whole run: keep-alive comments come every 15 s, quieter than the deadline.
      req.setTimeout(0);
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        buffer += chunk;
        let cut;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const name = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (name === 'ready') resolve(() => req.destroy());
          else if (name && data) onEvent(name, JSON.parse(data));
        }
      });
    });
    req.end();
  });
}

async function main() {
  buildServices();
  const namespace = `bench_live_${randomBytes(3).toString('hex')}`;
  const adminPassword = randomBytes(12).toString('hex');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cm-bench-live-'));
  const db = await benchDatabase();
  const closers = [];
  let stack;
  try {
    await db.connect();
    stack = await startStack({
      env: stackEnv(namespace, adminPassword, { EVENTS_MAX_STREAMS_PER_SESSION: '1' }),
      port: 0,
      ephemeralPorts: true,
      dataDir,
    });
    const call = (cookie, method, url, body) =>
      callApi(stack.url, cookie, method, url, body, { timeoutMs: LOST_AFTER_MS });
    const editor = await signIn(stack.url, 'admin', adminPassword);
    const building = await call(editor, 'POST', '/api/buildings', { name: 'Bench Hall' });
    const room = await call(editor, 'POST', `/api/buildings/${building.id}/rooms`, {
      name: 'B-1',
      type: 'Classroom',
      floor: '1',
    });
    const projector = await call(editor, 'POST', `/api/rooms/${room.id}/equipment`, { name: 'Projector' });
    const inactiveOnScreen = async (cookie) => {
      const rooms = await call(cookie, 'GET', `/api/buildings/${building.id}/rooms`);
      return rooms.find((r) => r.id === room.id)?.statusCounts?.inactive ?? 0;
    };

    // Each viewer its own session (one stream each, as one phone holds one), as the staff are.
    const eventMs = [];
    const shownMs = [];
    let pending = [];
    for (let v = 0; v < VIEWERS; v++) {
      const cookie = await signIn(stack.url, 'admin', adminPassword);
      closers.push(
        await openStream(stack.url, cookie, (name, data) => {
          if (name !== 'equipment.status') return;
          const change = data.changes.find((c) => c.equipmentId === projector.id);
          const waiting = pending.find((p) => p.viewer === v && p.status === change?.status && !p.seen);
          if (!waiting) return;
          waiting.seen = true;
          eventMs.push(performance.now() - waiting.sentAt);
          void (async () => {
            await sleep(COALESCE_MS);
            const expected = waiting.status === 'inactive' ? 1 : 0;
            while ((await inactiveOnScreen(cookie)) !== expected) await sleep(10);
            shownMs.push(performance.now() - waiting.sentAt);
            waiting.done();
          })().catch(waiting.fail);
        }),
      );
    }
    const loadBefore = loadAverage();
    for (let i = 0; i < CHANGES; i++) {
      const status = i % 2 === 0 ? 'inactive' : 'active';
      const sentAt = performance.now();
      const waits = Array.from({ length: VIEWERS }, (_, viewer) => ({ viewer, status, sentAt }));
      const arrivals = waits.map(
        (wait) => new Promise((resolve, reject) => Object.assign(wait, { done: resolve, fail: reject })),
      );
      pending = waits;
      let timer;
      const lost = new Promise((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`Change ${i + 1} did not reach every viewer within ${LOST_AFTER_MS} ms`)),
          LOST_AFTER_MS,
        );
      });
      try {
        await call(editor, 'PUT', `/api/equipment/${projector.id}`, { name: 'Projector', status });
        await Promise.race([Promise.all(arrivals), lost]);
      } finally {
        clearTimeout(timer);
      }
    }
    const shown = latencyFigures(shownMs);
    log(
      JSON.stringify({
        viewers: VIEWERS,
        changes: CHANGES,
        eventAfterSend: latencyFigures(eventMs),
        shownAfterSend: shown,
        withinPromise: `${shownMs.filter((ms) => ms <= PROMISE_MS).length} of ${shownMs.length}`,
        loadAverage: { before: loadBefore, after: loadAverage() },
        ratios: { shownP95ToPromise: round(shown.p95Ms / PROMISE_MS, 2) },
      }),
    );

    const replica = await startGatewayReplica(
      path.join(root, 'services/gateway/dist/main.js'),
      stack.children.get('gateway').pid,
    );
    closers.push(() => replica.child.kill('SIGTERM'));
    /** From `change()` sent to the replica's first `refused` answer to `path`, in ms. */
    const refusedAfter = async (cookie, path, refused, change) => {
      const statusOnReplica = async () => {
        const res = await fetch(`${replica.url}${path}`, {
          headers: { cookie },
          signal: AbortSignal.timeout(LOST_AFTER_MS),
        });
        await res.arrayBuffer();
        return res.status;
      };
      const served = await statusOnReplica();
      if (served !== 200) throw new Error(`The replica answered ${path} with ${served} before the change`);
      const sentAt = performance.now();
      await change();
      for (;;) {
        if ((await statusOnReplica()) === refused) return performance.now() - sentAt;
        if (performance.now() - sentAt > LOST_AFTER_MS)
          throw new Error(`The replica still served ${path} ${LOST_AFTER_MS} ms after the change`);
      }
    };
    const person = async (username, role) => {
      const password = `${username} bench secret`;
      const user = await call(editor, 'POST', '/api/users', { username, password, role });
      return { user, cookie: await signIn(replica.url, username, password) };
    };
    const demotedMs = [];
    const signedOutMs = [];
    const loadBeforeRevocations = loadAverage();
    for (let i = 0; i < REVOCATIONS; i++) {
      const { user, cookie } = await person(`bench-demoted-${i}`, 'admin');
      demotedMs.push(
        await refusedAfter(cookie, '/api/users', 403, () =>
          call(editor, 'PUT', `/api/users/${user.id}`, { username: user.username, role: 'user' }),
        ),
      );
    }
    for (let i = 0; i < REVOCATIONS; i++) {
      const { cookie } = await person(`bench-signed-out-${i}`, 'user');
      signedOutMs.push(
        await refusedAfter(cookie, '/api/auth/user', 401, async () => {
          const res = await fetch(`${stack.url}/api/logout`, {
            method: 'POST',
            headers: { cookie, 'x-requested-with': 'bench' },
            signal: AbortSignal.timeout(LOST_AFTER_MS),
          });
          if (res.status !== 204) throw new Error(`POST /api/logout answered ${res.status}`);
        }),
      );
    }
    const demoted = latencyFigures(demotedMs);
    const signedOut = latencyFigures(signedOutMs);
    const within = (values) =>
      `${values.filter((ms) => ms <= REVOCATION_PROMISE_MS).length} of ${values.length}`;
    log(
      JSON.stringify({
        revocations: REVOCATIONS,
        demotedRefusedAfterSend: demoted,
        signedOutRefusedAfterSend: signedOut,
        withinPromise: { demoted: within(demotedMs), signedOut: within(signedOutMs) },
        loadAverage: { before: loadBeforeRevocations, after: loadAverage() },
        ratios: {
          demotedP95ToPromise: round(demoted.p95Ms / REVOCATION_PROMISE_MS, 2),
          signedOutP95ToPromise: round(signedOut.p95Ms / REVOCATION_PROMISE_MS, 2),
        },
      }),
    );
  } finally {
    for (const close of closers) close();
    await tearDown({ stack, db, namespace, dataDir });
  }
}

runBench(main);
