import { ErrorCode } from '@cm/contracts';
import { fetch, startAuthAndGateway } from './support';

describe('GET /api/search', () => {
  let sut: Awaited<ReturnType<typeof startAuthAndGateway>>;
  let cookie: string;

  beforeAll(async () => {
    sut = await startAuthAndGateway();
    cookie = (await sut.signInAdmin()).cookie;
  });
  afterAll(() => sut?.close());

  const search = (query: string, headers: Record<string, string> = { cookie }) =>
    fetch(`${sut.base}/api/search${query}`, { headers });

  it('is for signed-in users only', async () => {
    const res = await search('?q=projector', {});
    expect(res.status).toBe(401);
  });

  it.each([
    ['no text', '', 'Search text is required'],
    ['two letters, once trimmed', '?q=%20ab%20', 'Search text must be at least 3 characters'],
    ['more than 100 characters', `?q=${'x'.repeat(101)}`, 'Search text must be at most 100 characters'],
    ['the text twice', '?q=abc&q=cde', 'Search text must be given once'],
    ['a NUL character', '?q=abc%00', 'Search text must not contain NUL characters'],
  ])('answers %s with a 400 that says what is wrong', async (_, query, message) => {
    const res = await search(query);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { code: string; message: string };
    expect(body.code).toBe(ErrorCode.VALIDATION_FAILED);
    expect(JSON.stringify(body)).toContain(message);
  });
});
