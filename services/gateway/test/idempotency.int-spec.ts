import { randomUUID } from 'node:crypto';
import { type Building, ErrorCode, type User } from '@cm/contracts';
import { fetch, startAuthAndGateway } from './support';

describe('Idempotency-Key on creates', () => {
  let sut: Awaited<ReturnType<typeof startAuthAndGateway>>;
  let cookie: string;

  beforeAll(async () => {
    sut = await startAuthAndGateway({}, { everyService: true });
    cookie = await sut.adminCookie();
  });
  afterAll(() => sut?.close());

  const post = (path: string, body: unknown, key?: string, as = cookie) =>
    fetch(`${sut.base}${path}`, {
      method: 'POST',
      headers: {
        cookie: as,
        'content-type': 'application/json',
        ...(key === undefined ? {} : { 'idempotency-key': key }),
      },
      body: JSON.stringify(body),
    });
  const buildingsNamed = async (name: string) => {
    const res = await fetch(`${sut.base}/api/buildings`, { headers: { cookie } });
    return ((await res.json()) as Building[]).filter((b) => b.name === name);
  };

  it('answers a retry with the first result instead of creating a second building', async () => {
    const key = randomUUID();
    const body = { name: `Retried ${key}`, description: 'Lost answer' };
    const first = await post('/api/buildings', body, key);
    const retry = await post('/api/buildings', body, key);

    expect(first.status).toBe(201);
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const created = (await first.json()) as Building;
    expect(await retry.json()).toEqual(created);
    expect(await buildingsNamed(body.name)).toEqual([expect.objectContaining({ id: created.id })]);
  });

  it('creates one building from requests with the same key sent at once', async () => {
    const key = randomUUID();
    const body = { name: `Double tap ${key}` };
    const answers = await Promise.all(Array.from({ length: 6 }, () => post('/api/buildings', body, key)));

    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(201));
    const ids = new Set(await Promise.all(answers.map(async (a) => ((await a.json()) as Building).id)));
    expect(ids.size).toBe(1);
    expect(await buildingsNamed(body.name)).toHaveLength(1);
  });

  it('creates a room per building even with the same key, since the path names the building', async () => {
    const [a, b] = await Promise.all(
      ['A', 'B'].map(
        async (n) =>
          (await (await post('/api/buildings', { name: `Wing ${n} ${randomUUID()}` })).json()) as Building,
      ),
    );
    const key = randomUUID();
    const room = { name: '101', type: 'Lecture Hall', floor: '1', capacity: 30 };
    const inA = await post(`/api/buildings/${a.id}/rooms`, room, key);
    const inB = await post(`/api/buildings/${b.id}/rooms`, room, key);

    expect([inA.status, inB.status]).toEqual([201, 201]);
    expect(inB.headers.get('idempotent-replayed')).toBeNull();
    expect(((await inA.json()) as { buildingId: string }).buildingId).toBe(a.id);
    expect(((await inB.json()) as { buildingId: string }).buildingId).toBe(b.id);
  });

  it('refuses the same key with a different body, saying so, and creates nothing', async () => {
    const key = randomUUID();
    expect((await post('/api/buildings', { name: `First ${key}` }, key)).status).toBe(201);
    const reused = await post('/api/buildings', { name: `Second ${key}` }, key);

    expect(reused.status).toBe(422);
    expect(await reused.json()).toEqual({
      code: ErrorCode.IDEMPOTENCY_KEY_REUSED,
      message: 'This Idempotency-Key was already used for a different request. Send a new key for new data.',
    });
    expect(await buildingsNamed(`Second ${key}`)).toEqual([]);
  });

  it("keeps each user's keys apart", async () => {
    const username = `keeper${Date.now()}`;
    const made = await post('/api/users', { username, password: 'keeper password', role: 'admin' });
    expect(made.status).toBe(201);
    const other = (await sut.signIn(username, 'keeper password')).cookie;
    const key = randomUUID();
    const body = { name: `Shared key ${key}` };

    expect((await post('/api/buildings', body, key)).status).toBe(201);
    const theirs = await post('/api/buildings', body, key, other);

    expect(theirs.status).toBe(201);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(await buildingsNamed(body.name)).toHaveLength(2);
  });

  it('lets a create that failed run again on its retry, since it stored nothing', async () => {
    const username = `taken${Date.now()}`;
    const holder = (await (
      await post('/api/users', { username, password: 'holder password' })
    ).json()) as User;
    const key = randomUUID();
    const body = { username, password: 'second password' };

    const refused = await post('/api/users', body, key);
    expect(refused.status).toBe(409);
    const removed = await fetch(`${sut.base}/api/users/${holder.id}`, {
      method: 'DELETE',
      headers: { cookie },
    });
    expect(removed.status).toBeLessThan(300);
    const retried = await post('/api/users', body, key);

    expect(retried.status).toBe(201);
    expect(((await retried.json()) as User).id).not.toBe(holder.id);
  });

  it.each([
    ['too short', 'abc'],
    ['with a space', 'has a space in it'],
    ['too long', 'k'.repeat(129)],
  ])('answers a key %s with a 400 that says what a key must be', async (_, key) => {
    const res = await post('/api/buildings', { name: `Bad key ${randomUUID()}` }, key);

    expect(res.status).toBe(400);
    const body = (await res.json()) as { code: string; message: string };
    expect(body.code).toBe(ErrorCode.VALIDATION_FAILED);
    expect(body.message).toContain('The Idempotency-Key header must be 8 to 128 visible ASCII characters');
  });

  it('creates as before without a key', async () => {
    const body = { name: `No key ${randomUUID()}` };
    await post('/api/buildings', body);
    await post('/api/buildings', body);

    expect(await buildingsNamed(body.name)).toHaveLength(2);
  });
});
