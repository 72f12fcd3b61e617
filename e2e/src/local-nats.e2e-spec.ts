import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type AuditPage, messages, namespacedSubject, natsPrincipals, type User } from '@cm/contracts';
import { testNamespace } from '@cm/platform/testing';
import { connect, JSONCodec, type NatsConnection } from 'nats';
import { sessionHeaders, signIn } from './session';
import { startSystem } from './stack';

const json = JSONCodec();

interface LocalNats {
  url: string;
  configFile: string;
  serviceEnv: Record<string, { NATS_USER: string; NATS_PASSWORD: string }>;
  stop(): Promise<void>;
}
// The module `npm start` runs its NATS server with.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startLocalNats } = require('../../scripts/local-nats.cjs') as {
  startLocalNats(options: { dataDir: string; namespace: string; port?: number }): Promise<LocalNats>;
};

const modeOf = (file: string) => statSync(file).mode & 0o777;

describe("npm start's NATS server", () => {
  const namespace = testNamespace('e2elocal');
  const dataDir = path.join(mkdtempSync(path.join(tmpdir(), 'cm-local-nats-')), 'nats');
  let nats: LocalNats;
  const clients: NatsConnection[] = [];
  const as = async (principal: string) => {
    const { NATS_USER: user, NATS_PASSWORD: pass } = nats.serviceEnv[principal];
    const nc = await connect({
      servers: nats.url,
      name: `test-as-${principal}`,
      user,
      pass,
      inboxPrefix: `_INBOX_${namespace}_${principal}`,
      reconnect: false,
    });
    clients.push(nc);
    return nc;
  };
  const request = (nc: NatsConnection, subject: string) =>
    nc.request(namespacedSubject(namespace, subject), json.encode({}), { timeout: 5000 });

  beforeAll(async () => {
    nats = await startLocalNats({ dataDir, namespace });
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await nats?.stop();
    rmSync(path.dirname(dataDir), { recursive: true, force: true });
  });

  it('keeps its configuration and generated passwords readable by their owner alone', () => {
    expect(modeOf(dataDir)).toBe(0o700);
    expect(modeOf(nats.configFile)).toBe(0o600);
    expect(modeOf(path.join(dataDir, 'passwords.json'))).toBe(0o600);
    expect(Object.keys(nats.serviceEnv).sort()).toEqual([...natsPrincipals].sort());
    expect(nats.serviceEnv.gateway.NATS_USER).toBe(`${namespace}-gateway`);
    expect(new Set(Object.values(nats.serviceEnv).map((e) => e.NATS_PASSWORD)).size).toBe(
      natsPrincipals.length,
    );
  });

  it('refuses a client without credentials, and one with a wrong password', async () => {
    await expect(connect({ servers: nats.url, name: 'anonymous', reconnect: false })).rejects.toMatchObject({
      code: 'AUTHORIZATION_VIOLATION',
    });
    await expect(
      connect({ servers: nats.url, user: `${namespace}-gateway`, pass: 'guessed', reconnect: false }),
    ).rejects.toMatchObject({ code: 'AUTHORIZATION_VIOLATION' });
  });

  it("lets each service user send only its own subjects: no promotion but through the gateway's", async () => {
    for (const principal of ['inventory', 'monitor', 'media', 'auth']) {
      const nc = await as(principal);
      await expect(request(nc, messages.auth.updateUser.subject)).rejects.toMatchObject({
        code: 'PERMISSIONS_VIOLATION',
      });
    }
    // The gateway may send it: nobody serves it here, so NATS says "no responders", not "forbidden".
    await expect(request(await as('gateway'), messages.auth.updateUser.subject)).rejects.toMatchObject({
      code: '503',
    });
    // Inventory asks nobody for a sign-in.
    await expect(request(await as('inventory'), messages.auth.login.subject)).rejects.toMatchObject({
      code: 'PERMISSIONS_VIOLATION',
    });
  });

  it('keeps the same passwords across a restart', async () => {
    const before = readFileSync(path.join(dataDir, 'passwords.json'), 'utf8');
    const first = nats.serviceEnv;
    await nats.stop();
    nats = await startLocalNats({ dataDir, namespace });
    expect(nats.serviceEnv).toEqual(first);
    expect(readFileSync(path.join(dataDir, 'passwords.json'), 'utf8')).toBe(before);
    await (await as('gateway')).flush();
  });
});

describe('the whole system on its own NATS server, as `npm start` runs it', () => {
  let system: Awaited<ReturnType<typeof startSystem>>;

  beforeAll(async () => {
    system = await startSystem({ MONITOR_ALLOWED_NETWORKS: '127.0.0.0/8' }, { ownNats: true });
  });
  afterAll(() => system?.close());

  it('runs with a user per service, and audits a promotion', async () => {
    const cookie = sessionHeaders(await signIn(system.url, system.admin.username, system.admin.password));
    const call = (p: string, method = 'GET', body?: unknown) =>
      fetch(`${system.url}${p}`, {
        method,
        headers: { ...cookie, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const created = await call('/api/users', 'POST', {
      username: 'deputy',
      password: 'deputy secret phrase',
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as User;
    const promoted = await call(`/api/users/${id}`, 'PUT', { username: 'deputy', role: 'admin' });
    expect(promoted.status).toBe(200);
    const audit = (await (await call(`/api/audit?entityType=user&entityId=${id}`)).json()) as AuditPage;
    expect(audit.items.map((e) => e.action)).toEqual(['update', 'create']);

    expect(system.env.NATS_URL).not.toBe(process.env.NATS_URL ?? 'nats://127.0.0.1:4222');
    const log = readFileSync(path.join(system.dataDir, 'nats', 'nats.log'), 'utf8');
    expect(
      log.split('\n').filter((line) => /Permissions Violation|Authorization Violation/i.test(line)),
    ).toEqual([]);
  });
});
