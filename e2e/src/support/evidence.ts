import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type BrowserContext, type Page } from 'playwright-core';

/**
 * What a page did, kept so that a failed browser test says why a screen never came: a picture of
 * it, its address and the calls it made (with the ones still unanswered marked), saved under
 * artifacts/failures. A screen that waits on a call looks the same as one that is merely slow.
 */
const evidenceDir = path.resolve(__dirname, '../../../artifacts/failures');
const keptCalls = 300;

interface Call {
  at: number;
  method: string;
  url: string;
  outcome?: string;
  took?: number;
}

const pages = new Map<Page, { opened: number; calls: Call[] }>();
let saved = 0;

/**
 * Keeps the calls of every page of the context, and its evidence when it is closed after a failed
 * test: most files close their phones in their own afterEach, before a hook here could look.
 */
export function watchContext(context: BrowserContext): void {
  context.on('page', watchPage);
  const close = context.close.bind(context);
  context.close = async (options) => {
    for (const page of context.pages()) await keepEvidenceIfFailed(page);
    return close(options);
  };
}

/** Starts keeping the page's calls; it is forgotten when it closes. */
function watchPage(page: Page): void {
  const opened = Date.now();
  const calls: Call[] = [];
  pages.set(page, { opened, calls });
  const pending = new Map<object, Call>();
  page.on('request', (request) => {
    const call = { at: Date.now() - opened, method: request.method(), url: request.url() };
    pending.set(request, call);
    calls.push(call);
    if (calls.length > keptCalls) calls.shift();
  });
  const settle = (request: object, outcome: string) => {
    const call = pending.get(request);
    if (!call) return;
    pending.delete(request);
    call.outcome = outcome;
    call.took = Date.now() - opened - call.at;
  };
  page.on('requestfinished', async (request) => {
    const response = await request.response().catch(() => null);
    settle(request, String(response?.status() ?? 'finished'));
  });
  page.on('requestfailed', (request) => settle(request, `failed: ${request.failure()?.errorText}`));
  page.on('close', () => pages.delete(page));
}

function failedTest(): string | undefined {
  const state = globalThis as { __e2eTestFailed?: boolean; __e2eTestName?: string };
  return state.__e2eTestFailed ? (state.__e2eTestName ?? 'unnamed test') : undefined;
}

/** If the running test has failed, saves what each watched page (or only `only`) shows. */
export async function keepEvidenceIfFailed(only?: Page): Promise<void> {
  const test = failedTest();
  if (!test) return;
  mkdirSync(evidenceDir, { recursive: true });
  const stem = test.replace(/[^\w-]+/g, '-').slice(0, 80);
  for (const [page, { calls }] of pages) {
    if (only && page !== only) continue;
    const file = path.join(evidenceDir, `${stem}-${++saved}`);
    const lines = calls.map(
      (c) =>
        `${String(c.at).padStart(6)} ms  ${c.method} ${c.url}  ${c.outcome ? `${c.outcome} in ${c.took} ms` : 'UNANSWERED'}`,
    );
    writeFileSync(`${file}.calls.txt`, [`at ${page.url()}`, ...lines].join('\n') + '\n');
    await page.screenshot({ path: `${file}.png`, timeout: 5_000 }).catch(() => {});
    const html = await page.content().catch((error: Error) => `(no content: ${error.message})`);
    writeFileSync(`${file}.html`, html);
    // The CI keeps only its printed output: the gist goes there too.
    const text = await page
      .evaluate('document.body ? document.body.innerText : ""')
      .then((t) => String(t).replace(/\s+/g, ' ').slice(0, 400))
      .catch(() => '(no text)');
    const open = calls.filter((c) => !c.outcome || /^(failed|[45]\d\d)/.test(c.outcome));
    const gist = lines.filter((_, i) => open.includes(calls[i])).slice(-12);
    process.stderr.write(
      [
        `Browser evidence of "${test}" kept in ${file}.*`,
        `  at ${page.url()}, ${calls.length} calls, shows: ${text}`,
        ...gist.map((line) => `  ${line}`),
        '',
      ].join('\n'),
    );
  }
}

// Pages opened in a beforeAll outlive the test; this runs after each test's own hooks.
afterEach(() => keepEvidenceIfFailed());
