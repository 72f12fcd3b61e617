import { randomUUID } from 'node:crypto';
import { ErrorCode } from '@cm/contracts';
import { fetch, startAuthAndGateway } from './support';

// What inventory answers is its own test's (inventory/test/maintenance-windows.int-spec.ts).
describe('/api/maintenance-windows', () => {
  let sut: Awaited<ReturnType<typeof startAuthAndGateway>>;
  let cookie: string;

  beforeAll(async () => {
    sut = await startAuthAndGateway();
    cookie = (await sut.signInAdmin()).cookie;
  });
  afterAll(() => sut?.close());

  const call = (path: string, method = 'GET', body?: unknown, headers: Record<string, string> = { cookie }) =>
    fetch(`${sut.base}/api/maintenance-windows${path}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const valid = {
    roomId: randomUUID(),
    startsAt: '2026-12-01T08:00:00Z',
    endsAt: '2026-12-01T12:00:00Z',
    reason: 'Lamp replacement',
  };

  it('is for signed-in users only', async () => {
    expect((await call('', 'GET', undefined, {})).status).toBe(401);
    expect((await call('', 'POST', valid, {})).status).toBe(401);
  });

  const refusals: [string, string, string, unknown, string][] = [
    [
      'a list by two places',
      '?roomId=' + randomUUID() + '&buildingId=' + randomUUID(),
      'GET',
      undefined,
      'Filter by one of buildingId, roomId or equipmentId, not several',
    ],
    [
      'a list whose end is before its start',
      '?from=2026-11-10&to=2026-11-01',
      'GET',
      undefined,
      'to must be later than from',
    ],
    ['a list with active=yes', '?active=yes', 'GET', undefined, 'active must be true or false'],
    [
      'a list by a room given twice',
      `?roomId=${randomUUID()}&roomId=${randomUUID()}`,
      'GET',
      undefined,
      'roomId must be given once',
    ],
    [
      'a window without a target',
      '',
      'POST',
      { ...valid, roomId: undefined },
      'Name exactly one of buildingId, roomId or equipmentId',
    ],
    [
      'a window for a room and its building',
      '',
      'POST',
      { ...valid, buildingId: randomUUID() },
      'Name exactly one of',
    ],
    [
      'a window that ends before it starts',
      '',
      'POST',
      { ...valid, endsAt: '2026-12-01T07:00:00Z' },
      'The end must be later than the start',
    ],
    [
      'a window of 100 days',
      '',
      'POST',
      { ...valid, endsAt: '2027-03-11T08:00:00Z' },
      'may last at most 90 days',
    ],
    ['a window without a reason', '', 'POST', { ...valid, reason: '' }, 'Reason is required'],
    ['an edit that changes nothing', `/${randomUUID()}`, 'PUT', {}, 'Send at least one field to change'],
    ['a malformed id', '/not-an-id', 'GET', undefined, 'Must be a valid id'],
  ];
  it.each(refusals)(
    'answers %s with a 400 that says what is wrong',
    async (_, path, method, body, message) => {
      const res = await call(path, method, body);
      expect(res.status).toBe(400);
      const answer = (await res.json()) as { code: string };
      expect(answer.code).toBe(ErrorCode.VALIDATION_FAILED);
      expect(JSON.stringify(answer)).toContain(message);
    },
  );
});
