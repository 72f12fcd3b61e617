import { randomUUID } from 'node:crypto';
import { ErrorCode } from '@cm/contracts';
import { fetch, startAuthAndGateway } from './support';

// The answers themselves come from inventory: see replies.int-spec.ts and inventory's history test.
describe('GET /api/equipment/:id/history', () => {
  let sut: Awaited<ReturnType<typeof startAuthAndGateway>>;
  let cookie: string;
  const id = randomUUID();

  beforeAll(async () => {
    sut = await startAuthAndGateway();
    cookie = (await sut.signInAdmin()).cookie;
  });
  afterAll(() => sut?.close());

  const history = (query: string, headers: Record<string, string> = { cookie }) =>
    fetch(`${sut.base}/api/equipment/${id}/history${query}`, { headers });

  it('is for signed-in users only', async () => {
    expect((await history('', {})).status).toBe(401);
  });

  it.each([
    ['an end before its start', '?from=2026-11-10&to=2026-11-01', 'to must be later than from'],
    ['more than 90 days', '?from=2026-01-01&to=2026-11-01', 'is longer than 90 days: ask for a shorter one'],
    ['a start that is no date', '?from=yesterday', 'from must be an ISO 8601 date or date and time'],
    ['the start twice', '?from=2026-11-01&from=2026-11-02', 'from must be given once'],
  ])('answers %s with a 400 that says what is wrong', async (_, query, message) => {
    const res = await history(query);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { code: string };
    expect(body.code).toBe(ErrorCode.VALIDATION_FAILED);
    expect(JSON.stringify(body)).toContain(message);
  });

  it('answers a malformed id with a 400', async () => {
    const res = await fetch(`${sut.base}/api/equipment/not-an-id/history`, { headers: { cookie } });
    expect(res.status).toBe(400);
  });
});
