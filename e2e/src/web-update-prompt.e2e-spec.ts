import http from 'node:http';
import { type AddressInfo } from 'node:net';
import { type Page } from 'playwright-core';
import { openSharedWebSystem, openSignedInPhone, type Phone, screenshot, type WebSystem } from './browser';
import { signIn } from './session';

/** What the test reads of the page's window (the test's TypeScript has no DOM types). */
interface UpdateWindow {
  navigator: {
    serviceWorker: {
      controller: unknown;
      getRegistration(): Promise<{ update(): Promise<unknown> } | undefined>;
    };
  };
  document: { querySelector(selector: string): { getAttribute(name: string): string | null } | null };
  stillThisPage?: boolean;
}

/**
 * The app as a second release would serve it, in front of the system on loopback: everything is
 * passed through as it is, until `release(2)`; from then on the page (index.html) names release 2
 * and the service worker precaches that page under a new revision, as a build of changed code
 * does. The Host a browser asked for is kept, so that the app's same-origin guard sees its own.
 */
async function releaseProxy(target: string) {
  const upstream = new URL(target);
  let current = 1;
  const changed = (path: string) => current === 2 && (path === '/sw.js' || /^\/(index\.html)?$/.test(path));
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const rewrite = changed(path);
    const headers = { ...req.headers };
    // A file to rewrite is asked for as it is: never one of its precompressed copies.
    if (rewrite) headers['accept-encoding'] = 'identity';
    const forward = http.request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers },
      (answer) => {
        if (!rewrite || answer.statusCode !== 200) {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          return;
        }
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          let text = Buffer.concat(chunks).toString('utf8');
          text =
            path === '/sw.js'
              ? text.replace(
                  /\{url:"index\.html",revision:"[^"]*"\}/,
                  '{url:"index.html",revision:"release-2"}',
                )
              : text.replace('<head>', '<head><meta name="cm-release" content="2">');
          const body = Buffer.from(text);
          const out = { ...answer.headers, 'content-length': String(body.length) };
          delete out['content-encoding'];
          delete out.etag;
          res.writeHead(200, out);
          res.end(body);
        });
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    release: (n: number) => (current = n),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Issue 37: the app updates itself with a "New version — reload" prompt, never mid-edit. A page
 * open on release 1 learns of release 2 (its service worker checks, as it does every hour and on
 * each navigation), says "New version" with Reload, keeps what is being typed, and only Reload
 * brings release 2. At 390×844.
 */
describe('web app: a new release waits for Reload', () => {
  let web: WebSystem;
  let proxy: Awaited<ReturnType<typeof releaseProxy>>;
  let phone: Phone | undefined;
  let page: Page;

  beforeAll(async () => {
    web = await openSharedWebSystem();
    proxy = await releaseProxy(web.system.url);
  });
  afterAll(async () => {
    await proxy?.close();
    await web?.close();
  });
  afterEach(async () => {
    await phone?.context.close();
    expect(phone?.problems).toEqual([]);
  });

  const release = () =>
    page.evaluate(
      () =>
        (globalThis as unknown as UpdateWindow).document
          .querySelector('meta[name="cm-release"]')
          ?.getAttribute('content') ?? '1',
    );

  /**
   * A phone on release 1 with its service worker in control: on the visit that installed it, or
   * (`reopened`) on a later one, where the page was opened under it.
   */
  const openOnRelease1 = async ({ reopened }: { reopened: boolean }) => {
    proxy.release(1);
    const { username, password } = web.system.admin;
    const cookie = await signIn(web.system.url, username, password);
    phone = await openSignedInPhone(web.browser, proxy.url, cookie, { serviceWorkers: 'allow' });
    page = phone.page;
    await page.goto('/buildings');
    await page.getByRole('heading', { name: 'Campus Buildings' }).waitFor();
    await page.waitForFunction(
      () => (globalThis as unknown as UpdateWindow).navigator.serviceWorker.controller !== null,
      undefined,
      { timeout: 60_000 },
    );
    if (reopened) {
      await page.reload();
      await page.getByRole('heading', { name: 'Campus Buildings' }).waitFor();
    }
    expect(await release()).toBe('1');
  };

  it.each([
    ['the visit that installed the app', false],
    ['a later visit', true],
  ])(
    'on %s: shows "New version" with Reload over a form being filled in, keeps the typed text, and reloads into the new release only when asked',
    async (_visit, reopened) => {
      await openOnRelease1({ reopened });

      await page.getByRole('button', { name: 'Add building' }).click();
      await page.getByLabel('Building Name *').fill('Half-typed annex');
      await page.evaluate(() => ((globalThis as unknown as UpdateWindow).stillThisPage = true));

      proxy.release(2);
      // The hourly check, now: the worker of release 2 installs beside the page.
      await page.evaluate(async () => {
        const registration = await (
          globalThis as unknown as UpdateWindow
        ).navigator.serviceWorker.getRegistration();
        await registration?.update();
      });
      const prompt = page.getByRole('status').filter({ hasText: 'New version' });
      await prompt.waitFor({ timeout: 60_000 });
      await screenshot(page, `update-prompt${reopened ? '-later-visit' : ''}`);
      // It waits for the person: the same page, the form and its text as they were.
      await page.waitForTimeout(3_000);
      expect(await page.evaluate(() => (globalThis as unknown as UpdateWindow).stillThisPage)).toBe(true);
      expect(await page.getByLabel('Building Name *').inputValue()).toBe('Half-typed annex');
      expect(await release()).toBe('1');

      await page.getByLabel('Building Name *').fill('Half-typed annex, more');
      expect(await page.evaluate(() => (globalThis as unknown as UpdateWindow).stillThisPage)).toBe(true);

      await Promise.all([page.waitForEvent('load'), prompt.getByRole('button', { name: 'Reload' }).click()]);
      await page.getByRole('navigation', { name: 'Main' }).waitFor();
      expect(
        await page.evaluate(() => (globalThis as unknown as UpdateWindow).stillThisPage),
      ).toBeUndefined();
      expect(await release()).toBe('2');
      expect(await page.getByRole('status').filter({ hasText: 'New version' }).count()).toBe(0);
    },
  );
});
