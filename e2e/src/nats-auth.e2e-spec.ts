import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import {
  type Building,
  type HealthReport,
  messages,
  type NatsPrincipal,
  natsPrincipals,
  natsUserName,
  namespacedSubject,
  events,
} from '@cm/contracts';
import { eventually, OwnNatsServer, testNamespace } from '@cm/platform/testing';
import { connect, JSONCodec, type NatsConnection } from 'nats';
import { sessionHeaders, signIn } from './session';
import { startSystem } from './stack';

const json = JSONCodec();
const script = path.resolve(__dirname, '../../scripts/nats-config.mjs');
const passwordVariable = (p: NatsPrincipal) => `NATS_${p.toUpperCase()}_PASSWORD`;

/**
 * The whole system against a NATS server that knows a user per service, configured by the same
 * script compose and the chart's documentation use: it works, and nobody else gets in.
 */
describe('the whole system on an authenticated NATS', () => {
  const namespace = testNamespace('e2enats');
  const passwords = Object.fromEntries(
    natsPrincipals.map((p) => [p, randomBytes(12).toString('hex')]),
  ) as Record<NatsPrincipal, string>;
  let nats: OwnNatsServer;
  let system: Awaited<ReturnType<typeof startSystem>>;
  const intruders: NatsConnection[] = [];

  /**
   * Opens the live stream and reads it until `until` is in what came (or 10 s pass), then closes
   * it: the gateway's consumers of the live stream need their own permissions.
   */
  const liveText = async (cookie: Record<string, string>, until: RegExp, lastEventId?: string) => {
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), 10_000);
    const res = await fetch(`${system.url}/api/events`, {
      headers: { ...cookie, ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
      signal: abort.signal,
    });
    expect(res.status).toBe(200);
    let text = '';
    const decoder = new TextDecoder();
    try {
      for await (const chunk of res.body!) {
        text += decoder.decode(chunk as Uint8Array, { stream: true });
        if (until.test(text)) break;
      }
    } catch {
      // Aborted: what came is judged below.
    } finally {
      clearTimeout(timer);
      abort.abort();
    }
    return text;
  };

  /** What the services were refused: a missing permission would show here, not as a failed call. */
  const servicesRefused = () =>
    nats.log.split('\n').filter((line) => /Permissions Violation/i.test(line) && !line.includes('intruder'));

  beforeAll(async () => {
    const config = execFileSync(process.execPath, [script, '--namespace', namespace], { encoding: 'utf8' });
    nats = await OwnNatsServer.start(
      config,
      // nats-server reads a variable's value as configuration: quoted, any password is a string.
      Object.fromEntries(natsPrincipals.map((p) => [passwordVariable(p), JSON.stringify(passwords[p])])),
    );
    system = await startSystem(
      { NATS_URL: nats.url, MONITOR_ALLOWED_NETWORKS: '127.0.0.0/8' },
      {
        namespace,
        serviceEnv: Object.fromEntries(
          natsPrincipals.map((p) => [
            p,
            { NATS_USER: natsUserName(namespace, p), NATS_PASSWORD: passwords[p] },
          ]),
        ),
      },
    );
  });

  afterAll(async () => {
    await Promise.all(intruders.map((c) => c.close()));
    await system?.close();
    await nats?.close();
  });

  it('signs in, creates a building and runs a sweep, and says readiness is authenticated', async () => {
    const cookie = sessionHeaders(await signIn(system.url, system.admin.username, system.admin.password));
    const post = (p: string, body?: unknown) =>
      fetch(`${system.url}${p}`, {
        method: 'POST',
        headers: { ...cookie, 'content-type': 'application/json' },
        body: JSON.stringify(body ?? {}),
      });
    // The gateway follows the live stream shortly after it starts: until then it answers 503.
    const before = await eventually(
      async () => /id: (\d+)\nevent: ready/.exec(await liveText(cookie, /event: ready/))![1],
    );
    const created = await post('/api/buildings', { name: 'Library' });
    expect(created.status).toBe(201);
    const building = (await created.json()) as Building;
    // Replayed from the stream after the id seen before the building was created.
    expect(await liveText(cookie, /event: ready/, before)).toContain(`"id":"${building.id}"`);
    const rooms = await post(`/api/buildings/${building.id}/rooms`, {
      name: '1',
      type: 'Classroom',
      floor: '1',
    });
    expect(rooms.status).toBe(201);
    const { id: roomId } = (await rooms.json()) as { id: string };
    expect(
      (await post(`/api/rooms/${roomId}/equipment`, { roomId, name: 'projector', ipAddress: '127.0.0.7' }))
        .status,
    ).toBe(201);
    // Check Now answers once inventory has recorded the sweep: the equipment events, the monitor's
    // KV buckets, its status events and inventory's consumer all work. The monitor learns of the
    // new equipment by an event, so the first check may come before it.
    await eventually(
      async () => {
        const check = await post('/api/monitoring/check');
        expect(check.status).toBe(200);
        expect(await check.json()).toMatchObject({ completed: true, targets: 1, answered: 1 });
      },
      60_000,
      500,
    );

    const ready = await fetch(`${system.url}/api/readyz`, { headers: cookie });
    expect(ready.status).toBe(200);
    expect(((await ready.json()) as HealthReport).nats).toEqual({ auth: 'user' });
    expect(servicesRefused()).toEqual([]);
  });

  it('refuses a client without credentials', async () => {
    await expect(connect({ servers: nats.url, name: 'intruder', reconnect: false })).rejects.toMatchObject({
      code: 'AUTHORIZATION_VIOLATION',
    });
  });

  it("refuses inventory's credentials a sign-in, a promotion and a status event", async () => {
    const nc = await connect({
      servers: nats.url,
      name: 'intruder-inventory',
      user: natsUserName(namespace, 'inventory'),
      pass: passwords.inventory,
      inboxPrefix: `_INBOX_${namespace}_inventory`,
    });
    intruders.push(nc);
    for (const message of [messages.auth.login, messages.auth.updateUser]) {
      await expect(
        nc.request(namespacedSubject(namespace, message.subject), json.encode({}), { timeout: 5000 }),
      ).rejects.toMatchObject({ code: 'PERMISSIONS_VIOLATION' });
    }
    await expect(
      nc
        .jetstream()
        .publish(namespacedSubject(namespace, events.statusChecked), json.encode({}), { timeout: 5000 }),
    ).rejects.toMatchObject({ code: 'PERMISSIONS_VIOLATION' });
  });
});
