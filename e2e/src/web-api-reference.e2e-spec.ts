import { openPhone, openSharedWebSystem, type Phone, type WebSystem } from './browser';

/** Redoc's sidebar shows its maker's logo from their site: the page's policy refuses it, so nothing leaves. */
const remoteLogo = /Loading the image 'https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini\.svg' violates/;

describe('web: the API reference', () => {
  let web: WebSystem;
  let phone: Phone;
  beforeAll(async () => {
    web = await openSharedWebSystem();
  });
  afterAll(() => web?.close());
  beforeEach(async () => {
    phone = await openPhone(web.browser, web.system.url);
  });
  afterEach(() => phone.context.close());

  it('renders the OpenAPI document within its page policy, with the error codes of each route', async () => {
    const { page, problems } = phone;
    // A refusal by the page's Content-Security-Policy is an event, which Chromium does not always log.
    const refused: string[] = [];
    await page.exposeFunction('reportRefusal', (what: string) => refused.push(what));
    await page.addInitScript({
      content: `document.addEventListener('securitypolicyviolation', (e) => reportRefusal(e.violatedDirective + ' ' + e.blockedURI));`,
    });

    // A deep link to one operation, by its operationId.
    await page.goto('/api/reference#tag/Buildings/operation/getBuilding');
    await page.getByRole('heading', { name: /Classroom Monitor API/ }).waitFor({ timeout: 30_000 });
    const operation = page.locator('[data-section-id="tag/Buildings/operation/getBuilding"]');
    await operation.locator('h2', { hasText: /^One building\s*$/ }).waitFor();
    // Its answers by status, each with the codes the document lists for it.
    await operation.getByRole('button', { name: /^404/ }).click();
    await operation.getByText('INVENTORY.BUILDING_NOT_FOUND').first().waitFor();

    expect(refused.filter((what) => !what.startsWith('img-src https://cdn.redoc.ly/'))).toEqual([]);
    expect(problems.filter((problem) => !remoteLogo.test(problem))).toEqual([]);
  });

  it('serves the same document under /api/openapi.json as under /api/docs', async () => {
    const [docs, openApi] = await Promise.all(
      ['/api/docs', '/api/openapi.json'].map(async (path) =>
        (await fetch(`${web.system.url}${path}`)).json(),
      ),
    );
    expect(openApi).toEqual(docs);
    expect(openApi).toMatchObject({ openapi: '3.1.0', servers: [{ url: '/' }] });
  });
});
