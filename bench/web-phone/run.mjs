// The web app on a mid-range phone: Debian's Chromium at 390×844 with the CPU slowed 4× (CDP
// Emulation.setCPUThrottlingRate), against a campus of 200 buildings / 2,000 rooms. Measures the
// time from navigation to the first building card (a first visit, nothing cached; and a reload,
// with the browser's cache) and the time each keystroke in the buildings search takes until the
// frame after it (input event to the next animation frame's end). Goals (issue 37): first card
// ≤ 1.5 s, keystroke ≤ 50 ms. The same page unthrottled, in the same run, is the reference.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import {
  benchDatabase,
  buildServices,
  root,
  runBench,
  seedCampus,
  signIn,
  stackEnv,
  tearDown,
} from '../support/campus.mjs';
import { median, percentile, round } from '../support/measure.mjs';

const require = createRequire(import.meta.url);
const { startStack } = require(path.join(root, 'scripts/stack.cjs'));
const { chromium } = require('playwright-core');

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const SLOWDOWN = 4;
const TYPED = 'ding 1';

const namespace = `bench_${randomBytes(4).toString('hex')}`;
const schema = `"${namespace}_inventory"`;
const adminPassword = randomBytes(12).toString('base64url');

/** Records, in the page's own clock, when the first card appears and how long each keystroke takes. */
const probe = `
  window.__bench = { firstCard: null, keys: [] };
  new MutationObserver((_, observer) => {
    if (document.querySelector('[data-testid="building-card"]')) {
      window.__bench.firstCard = performance.now();
      observer.disconnect();
    }
  }).observe(document, { childList: true, subtree: true });
  document.addEventListener('input', (event) => {
    const started = event.timeStamp;
    requestAnimationFrame(() => setTimeout(() => window.__bench.keys.push(performance.now() - started)));
  }, true);
`;

async function openPhone(browser, url, cookie, slowdown) {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    serviceWorkers: 'block',
  });
  const [name, value] = cookie.split('=', 2);
  await context.addCookies([{ name, value, url }]);
  await context.addInitScript(probe);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: slowdown });
  return { context, page, cdp };
}

/** A CPU profile's time (ms) by the file its functions are in, most first. */
function selfTimeByScript(profile, byFunction = process.env.BENCH_TRACE === 'functions') {
  const byNode = new Map(profile.nodes.map((n) => [n.id, n]));
  const ms = new Map();
  profile.samples.forEach((id, i) => {
    const { url, functionName } = byNode.get(id).callFrame;
    const file = url.replace(/^https?:\/\/[^/]+/, '');
    const key = !url ? `(${functionName || 'native'})` : byFunction ? `${file} ${functionName}` : file;
    ms.set(key, (ms.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  return [...ms]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 25)
    .map(([key, t]) => `${Math.round(t).toString().padStart(6)} ms ${key}`)
    .join('\n');
}

const firstCard = async (page) => {
  await page.waitForSelector('[data-testid="building-card"]', { timeout: 60_000 });
  return page.evaluate('window.__bench.firstCard');
};

/** One first visit and one reload: time to the first card of each, and the keystrokes' times. */
async function visit(browser, url, cookie, slowdown) {
  const { context, page, cdp } = await openPhone(browser, url, cookie, slowdown);
  try {
    const profiling = process.env.BENCH_TRACE && slowdown > 1;
    if (profiling) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.start');
    }
    await page.goto(`${url}/buildings`, { waitUntil: 'commit' });
    const cold = await firstCard(page);
    if (profiling) console.log(selfTimeByScript((await cdp.send('Profiler.stop')).profile));
    // BENCH_TRACE=1: what the first visit fetched, and when (ms from navigation), to see its waterfall.
    if (process.env.BENCH_TRACE && slowdown > 1) {
      const entries = await page.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .map(
            (e) =>
              `${Math.round(e.startTime)}–${Math.round(e.responseEnd)} ${e.name.replace(/^https?:\/\/[^/]+/, '')}`,
          ),
      );
      console.log(`first card at ${Math.round(cold)} ms\n${entries.join('\n')}`);
    }
    await page.reload({ waitUntil: 'commit' });
    const warm = await firstCard(page);
    await page.waitForTimeout(500);
    const search = page.getByRole('searchbox', { name: 'Search buildings' });
    await search.click();
    for (let i = 0; i < TYPED.length; i++) {
      await page.keyboard.type(TYPED[i]);
      await page.waitForFunction((n) => globalThis.__bench.keys.length === n, i + 1, { timeout: 30_000 });
      await page.waitForTimeout(150);
    }
    const keys = await page.evaluate('window.__bench.keys');
    return { cold, warm, keys };
  } finally {
    await context.close();
  }
}

async function measure(browser, url, cookie, slowdown) {
  const visits = [];
  for (let i = 0; i < RUNS; i++) visits.push(await visit(browser, url, cookie, slowdown));
  const keys = visits.flatMap((v) => v.keys).sort((a, b) => a - b);
  return {
    slowdown,
    cold: round(median(visits.map((v) => v.cold))),
    warm: round(median(visits.map((v) => v.warm))),
    keyP50: round(percentile(keys, 50)),
    keyMax: round(keys[keys.length - 1]),
  };
}

async function main() {
  buildServices();
  if (!existsSync(path.join(root, 'web/dist/index.html')) || process.argv.includes('--build')) {
    execFileSync('npx', ['vite', 'build', '--logLevel', 'warn'], {
      cwd: path.join(root, 'web'),
      stdio: 'inherit',
    });
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cm-bench-'));
  const db = await benchDatabase();
  let stack;
  let browser;
  try {
    [stack, browser] = await Promise.all([
      startStack({ env: stackEnv(namespace, adminPassword), port: 0, ephemeralPorts: true, dataDir }),
      chromium.launch({
        executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
        headless: true,
        args: [
          '--no-sandbox',
          '--disable-gpu',
          '--disable-background-networking',
          '--disable-component-update',
        ],
      }),
    ]);
    await db.connect();
    await seedCampus(db, schema, { buildings: 200, roomsPerBuilding: 10, equipmentPerRoom: 2 });
    const cookie = await signIn(stack.url, 'admin', adminPassword);
    const reference = await measure(browser, stack.url, cookie, 1);
    const phone = await measure(browser, stack.url, cookie, SLOWDOWN);
    console.log(
      `\n200 buildings, 2,000 rooms; ${RUNS} visits each at 390×844, Chromium ${browser.version()}`,
    );
    console.log(`keystrokes: "${TYPED}" typed one key at a time into Search buildings`);
    console.log(
      '| CPU | first card, first visit ms | first card, reload ms | keystroke p50 ms | keystroke max ms |',
    );
    console.log('|---|---|---|---|---|');
    for (const r of [reference, phone]) {
      console.log(`| ${r.slowdown}× | ${r.cold} | ${r.warm} | ${r.keyP50} | ${r.keyMax} |`);
    }
    console.log(`goals at ${SLOWDOWN}×: first card ≤ 1500 ms, keystroke ≤ 50 ms`);
  } finally {
    await browser?.close();
    await tearDown({ stack, db, namespace, dataDir });
  }
}

runBench(main);
