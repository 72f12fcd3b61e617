import { closeSync, existsSync, ftruncateSync, mkdirSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import { sessionHeaders, signIn } from './session';
import { watchContext } from './support/evidence';
import { sharedSystem } from './shared-system';
import { type Credentials, startSystem } from './stack';

/** A phone: the app is laid out for this width. */
export const PHONE_VIEWPORT = { width: 390, height: 844 };

const screenshotDir = path.resolve(__dirname, '../../artifacts/screenshots');

/**
 * Debian's Chromium (scripts/ensure-chromium.sh installs it), headless. Without the
 * background-networking flag it keeps calling Google's hosts, which this network refuses.
 */
export function launchBrowser(): Promise<Browser> {
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(executablePath))
    throw new Error(
      `No Chromium at ${executablePath}: run "bash scripts/ensure-chromium.sh" (or set CHROMIUM_PATH)`,
    );
  return chromium.launch({
    executablePath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
    timeout: 30_000,
  });
}

export interface WebSystem {
  system: { url: string; namespace: string; admin: Credentials };
  browser: Browser;
  /** The first administrator's session cookie. */
  adminCookie: string;
  /** Calls the API as the administrator (to arrange data and check what the screens saved). */
  api<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
  close(): Promise<void>;
}

/** The whole system (with extra environment for its services) and a browser, started side by side. */
export async function startWebSystem(env: Record<string, string> = {}): Promise<WebSystem> {
  // Settled both ways: a browser that fails to start must not leave the system starting after the
  // file has ended (jest would then report that, not the browser's reason).
  const [system, browser] = await Promise.allSettled([startSystem(env), launchBrowser()]);
  if (system.status === 'rejected' || browser.status === 'rejected') {
    if (system.status === 'fulfilled') await system.value.close();
    if (browser.status === 'fulfilled') await browser.value.close();
    throw system.status === 'rejected' ? system.reason : (browser as PromiseRejectedResult).reason;
  }
  return webSystem(system.value, browser.value, () => system.value.close());
}

/** A browser on the system the run shares (see ./shared-system); closing it leaves the system running. */
export async function openSharedWebSystem(): Promise<WebSystem> {
  return webSystem(sharedSystem(), await launchBrowser(), async () => {});
}

async function webSystem(
  system: WebSystem['system'],
  browser: Browser,
  closeSystem: () => Promise<void>,
): Promise<WebSystem> {
  const adminCookie = await signIn(system.url, system.admin.username, system.admin.password);
  return {
    system,
    browser,
    adminCookie,
    api: async <T>(method: string, path: string, body?: unknown) => {
      const res = await fetch(`${system.url}${path}`, {
        method,
        headers: { ...sessionHeaders(adminCookie), 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`);
      return (res.status === 204 ? undefined : await res.json()) as T;
    },
    close: async () => {
      await browser.close();
      await closeSystem();
    },
  };
}

export interface Phone {
  context: BrowserContext;
  page: Page;
  /** Console errors and uncaught exceptions seen so far (a broken page rarely fails loudly). */
  problems: string[];
}

export interface PhoneOptions {
  /**
   * The app's service worker (which precaches every screen) is blocked unless a test is about it:
   * requests it answers from its cache would pass by `page.route` (holdRequests), and each fresh
   * profile would download the whole app again to install it.
   */
  serviceWorkers?: 'allow' | 'block';
}

/** A fresh browser profile at phone size, signed out, on the given stack. */
export async function openPhone(
  browser: Browser,
  baseURL: string,
  { serviceWorkers = 'block' }: PhoneOptions = {},
): Promise<Phone> {
  const context = await browser.newContext({
    baseURL,
    viewport: PHONE_VIEWPORT,
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    serviceWorkers,
  });
  // A guard against a hang, not a speed limit: a fresh profile (no service worker, nothing cached)
  // fetches and runs the whole app, which the e2e lanes, the integration tests and a CPU hog
  // beside them have slowed past 15 s (issue 33).
  context.setDefaultTimeout(30_000);
  watchContext(context);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  page.on('console', (message) => {
    // A refused API call is logged by Chromium as a failed resource; the app handles those.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
      problems.push(`console: ${message.text()}`);
  });
  return { context, page, problems };
}

/** A profile that already holds the session cookie of `cookie` (from `signIn` in ./session). */
export async function openSignedInPhone(
  browser: Browser,
  baseURL: string,
  cookie: string,
  options: PhoneOptions = {},
): Promise<Phone> {
  const phone = await openPhone(browser, baseURL, options);
  const [name, value] = cookie.split('=', 2) as [string, string];
  await phone.context.addCookies([{ name, value, url: baseURL }]);
  return phone;
}

/**
 * A fresh signed-in phone for each test of the file (`web` answers the file's system once it has
 * started), handed to `use`; after each test the phone closes, and the test fails if the page
 * logged an error or a call failed on the way.
 */
export function signedInPhonePerTest(web: () => WebSystem, use: (phone: Phone) => void): void {
  let phone: Phone;
  beforeEach(async () => {
    const { browser, system, adminCookie } = web();
    phone = await openSignedInPhone(browser, system.url, adminCookie);
    use(phone);
  });
  afterEach(async () => {
    await phone.context.close();
    expect(phone.problems).toEqual([]);
  });
}

/**
 * A file's tests on the shared system, each with a fresh signed-in phone: `useWeb` is handed the
 * system before the file's other set-up, `usePage` each test's page.
 */
export function onSharedSystem(useWeb: (web: WebSystem) => void, usePage: (page: Page) => void): void {
  let web: WebSystem;
  beforeAll(async () => {
    web = await openSharedWebSystem();
    useWeb(web);
  });
  afterAll(() => web?.close());
  signedInPhonePerTest(
    () => web,
    (phone) => usePage(phone.page),
  );
}

/** Accepts (or dismisses) the next browser confirmation and answers its text. */
export function answerNextConfirm(page: Page, accept: boolean): Promise<string> {
  return new Promise((resolve) =>
    page.once('dialog', async (dialog) => {
      const message = dialog.message();
      await (accept ? dialog.accept() : dialog.dismiss());
      resolve(message);
    }),
  );
}

/** A real PNG picture (a diagonal gradient of the given colour), to upload like a photo. */
export function pngImage(width: number, height: number, [r, g, b]: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const shade = 0.55 + (0.45 * (x + y)) / (width + height);
      rows.set([r * shade, g * shade, b * shade].map(Math.round), y * (width * 3 + 1) + 1 + x * 3);
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * A file of the given size on disk (sparse, so nothing is written), for a file input to be given its
 * path: a buffer that large goes to the browser as base64 through the protocol, which on a loaded
 * machine outlasted the action's 30 s deadline; a path is handed to the browser as it is.
 * The caller removes it with `removeLargeFile` once the page has taken it.
 */
export function largeFile(name: string, bytes: number): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'cm-large-file-'));
  const file = path.join(folder, name);
  const descriptor = openSync(file, 'w');
  try {
    ftruncateSync(descriptor, bytes);
  } finally {
    closeSync(descriptor);
  }
  return file;
}

export function removeLargeFile(file: string): void {
  rmSync(path.dirname(file), { recursive: true, force: true });
}

/** A picture stored as the upload form stores it, for a record to hold: its path. */
export async function uploadedPicture(web: WebSystem, colour: [number, number, number]): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([pngImage(200, 120, colour)], { type: 'image/png' }), 'picture.png');
  const res = await fetch(`${web.system.url}/api/upload`, {
    method: 'POST',
    body: form,
    headers: sessionHeaders(web.adminCookie),
  });
  if (!res.ok) throw new Error(`POST /api/upload answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { url: string }).url;
}

/**
 * Holds back the requests to matching URLs until `release` is called, to see what the screen
 * shows while a call is running. Release it in a finally: a held request keeps the page open.
 */
export async function holdRequests(page: Page, url: string): Promise<{ release: () => void }> {
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(url, async (route) => {
    await released;
    await route.continue();
  });
  return { release };
}

/** Signs in through the sign-in screen and waits for the buildings list. */
export async function signInThroughForm(page: Page, { username, password }: Credentials): Promise<void> {
  await page.goto('/');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.getByRole('heading', { name: 'Campus Buildings' }).waitFor();
}

/**
 * Waits for the toast with this title and text, and checks its style and that it is the only
 * toast on screen (spec section 8: one at a time; failures in the destructive style).
 */
export async function expectToast(
  page: Page,
  title: string,
  text: string,
  style: 'default' | 'destructive' = 'default',
): Promise<void> {
  const open = page.locator('[data-slot="toast"][data-state="open"]');
  const wanted = open
    .filter({ has: page.locator('[data-slot="toast-title"]', { hasText: title }) })
    .filter({ has: page.locator('[data-slot="toast-description"]', { hasText: text }) });
  try {
    await wanted.waitFor();
  } catch {
    const shown = await open.allInnerTexts();
    throw new Error(`No toast "${title}: ${text}"; on screen: ${JSON.stringify(shown)}`);
  }
  const count = await open.count();
  if (count !== 1) throw new Error(`${count} toasts on screen at once`);
  const variant = await wanted.getAttribute('data-variant');
  if (variant !== style) throw new Error(`The toast "${title}" has the ${variant} style, not ${style}`);
}

/**
 * Saves a full-page picture of the screen under artifacts/screenshots, after checking that
 * nothing on it is wider than the phone (the usual way a layout breaks at this size) and every
 * control is at least a 44 px touch target. Toasts are closed first unless asked to keep them.
 */
export async function screenshot(
  page: Page,
  name: string,
  { keepToasts = false }: { keepToasts?: boolean } = {},
): Promise<void> {
  mkdirSync(screenshotDir, { recursive: true });
  if (!keepToasts) {
    // A toast covers the top of the screen for five seconds; the picture is of the screen.
    const open = page.locator('[data-slot="toast"][data-state="open"]');
    // Dispatched, not clicked: under an open dialog a real click would land on its overlay. A
    // toast may close by itself meanwhile, and then its button is not waited for.
    for (const close of await open.getByRole('button', { name: 'Close' }).all())
      await close.dispatchEvent('click', undefined, { timeout: 1000 }).catch(() => undefined);
    await open.first().waitFor({ state: 'detached' });
  }
  // A string, because this workspace compiles without the DOM's types.
  const overflow = await page.evaluate<string[]>(`(() => {
    const width = document.documentElement.clientWidth;
    return [...document.querySelectorAll('body *')]
      .filter((el) => {
        const r = el.getBoundingClientRect();
        return r.width > 0 && (r.right > width + 1 || r.left < -1);
      })
      .filter((el) => !el.closest('[data-radix-toast-viewport], [aria-hidden="true"], .sr-only'))
      // A drawing's shapes are clipped by their <svg>, which is checked itself.
      .filter((el) => !el.ownerSVGElement)
      .map((el) => el.tagName.toLowerCase() + '.' + String(el.className).slice(0, 60))
      .slice(0, 5);
  })()`);
  if (overflow.length) throw new Error(`"${name}" has elements wider than the phone: ${overflow.join(', ')}`);
  const small = await page.evaluate<string[]>(`(() => {
    const controls = 'button, [role="switch"], [role="combobox"], select, textarea, input:not([type="file"])';
    return [...document.querySelectorAll(controls)]
      .filter((el) => !el.closest('.sr-only, [aria-hidden="true"]'))
      .map((el) => [el, el.getBoundingClientRect()])
      .filter(([, r]) => r.width > 0 && (r.height < 44 || r.width < 44))
      .map(([el, r]) => (el.getAttribute('aria-label') || el.textContent.trim() || el.tagName) + ' ' + Math.round(r.width) + 'x' + Math.round(r.height))
      .slice(0, 5);
  })()`);
  if (small.length)
    throw new Error(`"${name}" has controls smaller than a 44 px touch target: ${small.join(', ')}`);
  // What the phone shows: a full-page capture would paint the fixed navigation mid-page.
  await page.screenshot({ path: path.join(screenshotDir, `${name}.png`) });
}

/** Texts of the matching elements, once at least one is visible. */
export async function textsOf(locator: Locator): Promise<string[]> {
  await locator.first().waitFor();
  return (await locator.allInnerTexts()).map((t) => t.trim());
}
