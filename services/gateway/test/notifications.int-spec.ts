import { ErrorCode } from '@cm/contracts';
import { randomBytes } from 'node:crypto';
import { fetch, startAuthAndGateway } from './support';

// What the gateway answers for channels and the log; sending is inventory's (its notifications test).
describe('notification channels over HTTP', () => {
  let sut: Awaited<ReturnType<typeof startAuthAndGateway>>;
  let admin: string;
  let user: string;
  const plain = { username: 'av-tech', password: 'av tech password' };

  beforeAll(async () => {
    // Inventory without ALERTS_SECRET_KEY or SMTP_HOST: neither kind of channel can be added.
    sut = await startAuthAndGateway({}, { inventory: true });
    admin = await sut.adminCookie();
    const created = await fetch(`${sut.base}/api/users`, {
      method: 'POST',
      headers: { cookie: admin, 'content-type': 'application/json' },
      body: JSON.stringify(plain),
    });
    expect(created.status).toBe(201);
    user = (await sut.signIn(plain.username, plain.password)).cookie;
  });
  afterAll(() => sut?.close());

  const call = async (method: string, path: string, cookie: string, body?: unknown) => {
    const res = await fetch(`${sut.base}${path}`, {
      method,
      headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : null) as Record<string, unknown> };
  };

  it('lets every signed-in user read the channels, and only administrators change them or read the log', async () => {
    expect(await call('GET', '/api/notification-channels', user)).toEqual({ status: 200, body: [] });
    const refused = { status: 403, body: expect.objectContaining({ code: ErrorCode.FORBIDDEN }) };
    const channel = { name: 'AV', type: 'email', recipients: ['av@example.edu'] };
    expect(await call('POST', '/api/notification-channels', user, channel)).toEqual(refused);
    expect(await call('GET', '/api/alerts', user)).toEqual(refused);
    expect(await call('GET', '/api/alerts', admin)).toEqual({
      status: 200,
      body: { items: [], nextCursor: null },
    });
  });

  it('lists the open alerts to every signed-in user, refusing a bad or unknown room with a 4xx', async () => {
    expect(await call('GET', '/api/alerts/open', user)).toEqual({ status: 200, body: [] });
    expect(await call('GET', '/api/alerts/open?roomId=nope', user)).toMatchObject({
      status: 400,
      body: {
        code: ErrorCode.VALIDATION_FAILED,
        errors: [{ path: 'roomId', message: 'Must be a valid id' }],
      },
    });
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect(await call('GET', `/api/alerts/open?buildingId=${unknown}`, user)).toMatchObject({
      status: 404,
      body: { code: ErrorCode.BUILDING_NOT_FOUND },
    });
    const anonymous = await fetch(`${sut.base}/api/alerts/open`);
    expect(anonymous.status).toBe(401);
  });

  it("sets a building's teaching hours for administrators, saying what is wrong with a bad form", async () => {
    const building = await call('POST', '/api/buildings', admin, { name: 'Quiet Hall' });
    const path = `/api/buildings/${String(building.body.id)}/quiet-hours`;
    expect(await call('GET', path, user)).toEqual({
      status: 200,
      body: { buildingId: building.body.id, quietHours: null },
    });
    const hours = {
      days: [5, 1, 2, 3, 4],
      start: '07:30',
      end: '18:00',
      timeZone: 'Europe/Berlin',
      outside: 'digest',
    };
    expect(await call('PUT', path, user, hours)).toMatchObject({ status: 403 });
    expect(await call('PUT', path, admin, hours)).toEqual({
      status: 200,
      // Rooms with no more classes today are not held unless asked.
      body: {
        buildingId: building.body.id,
        quietHours: { ...hours, days: [1, 2, 3, 4, 5], idleRoomsWait: false },
      },
    });
    const refusals: [object, string, string][] = [
      [
        { timeZone: 'Mars/Olympus' },
        'timeZone',
        'Time zone must be an IANA time zone, such as Europe/Berlin or UTC',
      ],
      [{ start: '18:00', end: '07:30' }, 'end', 'The end must be later than the start'],
      [{ start: '7:30' }, 'start', 'Start must be a time such as 08:00 (24-hour, HH:MM)'],
      [{ days: [] }, 'days', 'Choose at least one teaching day'],
      [{ outside: 'later' }, 'outside', 'Outside teaching hours must be digest or drop'],
    ];
    for (const [change, field, message] of refusals) {
      expect(await call('PUT', path, admin, { ...hours, ...change })).toMatchObject({
        status: 400,
        body: { code: ErrorCode.VALIDATION_FAILED, errors: [{ path: field, message }] },
      });
    }
    expect(await call('DELETE', path, admin)).toMatchObject({ status: 200, body: { quietHours: null } });
    const unknown = '/api/buildings/00000000-0000-4000-8000-000000000000/quiet-hours';
    expect(await call('PUT', unknown, admin, hours)).toMatchObject({
      status: 404,
      body: { code: ErrorCode.BUILDING_NOT_FOUND },
    });
  });

  it.each([
    [{ name: '', type: 'webhook', url: 'https://a.example.edu/' }, 'name', 'Channel name is required'],
    [
      { name: 'X', type: 'fax' },
      'type',
      'Type must be one of webhook, email, teams, slack, matrix, servicenow, jira-service-management',
    ],
    [{ name: 'X', type: 'slack' }, 'url', 'A Slack channel needs its incoming webhook URL'],
    [
      { name: 'X', type: 'matrix', url: 'https://matrix.example.edu', roomId: '#av:example.edu' },
      'roomId',
      'not an alias starting with "#"',
    ],
    [
      { name: 'X', type: 'servicenow', url: 'https://campus.service-now.com', password: 'p' },
      'username',
      "A ServiceNow channel needs the integration user's name",
    ],
    [
      {
        name: 'X',
        type: 'jira-service-management',
        url: 'https://campus.atlassian.net',
        username: 'av@campus.edu',
        token: 't',
        mapping: { projectKey: 'av desk' },
      },
      'mapping.projectKey',
      'Project key must be a Jira project key, such as AV',
    ],
    [
      { name: 'X', type: 'webhook', url: 'file:///etc/passwd' },
      'url',
      'URL must be an http:// or https:// address',
    ],
    [{ name: 'X', type: 'webhook' }, 'url', 'A webhook channel needs a URL'],
    [
      { name: 'X', type: 'email', recipients: ['not an address'] },
      'recipients.0',
      'Each recipient must be a valid email address',
    ],
  ])('answers the form %j with a 400 naming %s', async (body, path, message) => {
    const { status, body: answer } = await call('POST', '/api/notification-channels', admin, body);
    expect(status).toBe(400);
    expect(answer).toMatchObject({
      code: ErrorCode.VALIDATION_FAILED,
      errors: expect.arrayContaining([{ path, message: expect.stringContaining(message) }]),
    });
  });

  it('says which setting a kind of channel waits for', async () => {
    const webhook = await call('POST', '/api/notification-channels', admin, {
      name: 'AV',
      type: 'webhook',
      url: 'https://hooks.example.edu/av',
    });
    expect(webhook).toEqual({
      status: 400,
      body: { code: ErrorCode.CHANNEL_UNAVAILABLE, message: expect.stringContaining('ALERTS_SECRET_KEY') },
    });
    const email = await call('POST', '/api/notification-channels', admin, {
      name: 'AV',
      type: 'email',
      recipients: ['av@example.edu'],
    });
    expect(email).toEqual({
      status: 400,
      body: { code: ErrorCode.CHANNEL_UNAVAILABLE, message: expect.stringContaining('SMTP_HOST') },
    });
  });

  it.each([
    ['?limit=1000', 'limit must be at most 100'],
    ['?state=lost', 'State must be pending, sending, sent or failed'],
    ['?from=yesterday', 'from must be an ISO date and time'],
    ['?cursor=bm90LWEtY3Vyc29y', 'cursor must be a nextCursor from a previous page'],
  ])('answers the log query %s with a 400 that says what is wrong', async (query, message) => {
    const { status, body } = await call('GET', `/api/alerts${query}`, admin);
    expect(status).toBe(400);
    expect(JSON.stringify(body)).toContain(message);
  });

  it('answers a test of an unknown channel with a 404', async () => {
    const { status, body } = await call(
      'POST',
      '/api/notification-channels/00000000-0000-4000-8000-000000000000/test',
      admin,
    );
    expect({ status, code: body.code }).toEqual({ status: 404, code: ErrorCode.CHANNEL_NOT_FOUND });
  });
});

// A Slack or Teams hook's URL is the credential: whoever has it can post to the channel.
describe('webhook URLs over HTTP', () => {
  let sut: Awaited<ReturnType<typeof startAuthAndGateway>>;
  let admin: string;
  let user: string;
  const url = 'http://127.0.0.1:9/services/T000/B000/pathsecret';

  beforeAll(async () => {
    sut = await startAuthAndGateway(
      {},
      {
        inventory: true,
        inventoryEnv: {
          ALERTS_SECRET_KEY: randomBytes(32).toString('base64'),
          // Never called here: listed so that it may be saved.
          ALERTS_ALLOWED_TARGETS: '127.0.0.1',
        },
      },
    );
    admin = await sut.adminCookie();
    const plain = { username: 'av-viewer', password: 'av viewer password' };
    const created = await fetch(`${sut.base}/api/users`, {
      method: 'POST',
      headers: { cookie: admin, 'content-type': 'application/json' },
      body: JSON.stringify(plain),
    });
    expect(created.status).toBe(201);
    user = (await sut.signIn(plain.username, plain.password)).cookie;
  });
  afterAll(() => sut?.close());

  const list = async (headers: Record<string, string>) => {
    const res = await fetch(`${sut.base}/api/notification-channels`, { headers });
    return { status: res.status, text: await res.text() };
  };

  it('shows a webhook URL to administrators alone; users and their API tokens see its host', async () => {
    const saved = await fetch(`${sut.base}/api/notification-channels`, {
      method: 'POST',
      headers: { cookie: admin, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'AV chat', type: 'webhook', url }),
    });
    expect(saved.status).toBe(201);
    const token = await fetch(`${sut.base}/api/tokens`, {
      method: 'POST',
      headers: { cookie: user, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Wallboard',
        expiresAt: new Date(Date.now() + 7 * 24 * 3600 * 1000).toISOString(),
      }),
    });
    expect(token.status).toBe(201);
    const { token: bearer } = (await token.json()) as { token: string };

    const viewers: Record<string, string>[] = [{ cookie: user }, { authorization: `Bearer ${bearer}` }];
    for (const headers of viewers) {
      const { status, text } = await list(headers);
      expect(status).toBe(200);
      expect(text).not.toContain('pathsecret');
      expect(text).not.toContain('/services/');
      const [channel] = JSON.parse(text) as Record<string, unknown>[];
      expect(channel).toMatchObject({ name: 'AV chat', type: 'webhook', host: '127.0.0.1:9' });
      expect(channel).not.toHaveProperty('url');
    }
    const asAdmin = await list({ cookie: admin });
    expect(JSON.parse(asAdmin.text)).toEqual([
      expect.objectContaining({ name: 'AV chat', url, host: '127.0.0.1:9' }),
    ]);
  });
});
