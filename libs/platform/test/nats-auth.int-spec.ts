import { randomBytes } from 'node:crypto';
import {
  ErrorCode,
  events,
  messages,
  natsAuthorizationConfig,
  type NatsPrincipal,
  natsPrincipals,
  natsUserName,
  namespacedSubject,
  type StatusEvent,
  streams,
} from '@cm/contracts';
import { connect, JSONCodec, type NatsConnection } from 'nats';
import {
  ChunkStreamServer,
  coreEnvSchema,
  JetStreamConnection,
  natsClientOptions,
  parseEnv,
  readChunks,
  RpcClient,
} from '../src';
import { OwnNatsServer, testNamespace } from '../src/testing';

const json = JSONCodec();
const passwords = Object.fromEntries(
  natsPrincipals.map((p) => [p, randomBytes(12).toString('hex')]),
) as Record<NatsPrincipal, string>;

describe('NATS users and permissions', () => {
  const namespace = testNamespace('natsauth');
  const subject = (s: string) => namespacedSubject(namespace, s);
  let server: OwnNatsServer;
  const open: { close(): Promise<void> }[] = [];
  /** Sign-in requests that reached auth. */
  let signIns = 0;

  /** The environment a principal's process would read, through the same options every service uses. */
  const configOf = (principal: NatsPrincipal) =>
    parseEnv(coreEnvSchema, {
      CM_NAMESPACE: namespace,
      NATS_URL: server.url,
      NATS_USER: natsUserName(namespace, principal),
      NATS_PASSWORD: passwords[principal],
    });

  const connectAs = async (principal: NatsPrincipal): Promise<NatsConnection> => {
    const config = configOf(principal);
    const nc = await connect({
      servers: server.url,
      name: principal,
      ...natsClientOptions(config, principal),
    });
    open.push(nc);
    return nc;
  };

  /** The platform's client under the principal's credentials, closed after the tests. */
  const rpcAs = (principal: NatsPrincipal, timeoutMs = 5000) => {
    const rpc = new RpcClient({
      namespace,
      servers: server.url,
      timeoutMs,
      name: principal,
      connection: natsClientOptions(configOf(principal), principal),
    });
    open.push({ close: () => rpc.onApplicationShutdown() });
    return rpc;
  };

  const jetStreamAs = async (principal: NatsPrincipal) => {
    const config = configOf(principal);
    const js = await JetStreamConnection.connect({
      namespace,
      servers: server.url,
      name: principal,
      timeoutMs: 5000,
      connection: natsClientOptions(config, principal),
    });
    open.push(js);
    return js;
  };

  const check: StatusEvent = {
    eventId: 'e-1',
    equipmentId: '00000000-0000-4000-8000-000000000001',
    sweepId: 'sweep-1',
    status: 'active',
    checkedAt: new Date().toISOString(),
    rttMs: 1,
    results: [{ address: '127.0.0.1', alive: true, rttMs: 1 }],
  };

  beforeAll(async () => {
    server = await OwnNatsServer.start(
      natsAuthorizationConfig(namespace, (p) => JSON.stringify(passwords[p])),
    );
    // A stand-in for the auth service, under its own credentials: it counts the sign-ins reaching it.
    const auth = await connectAs('auth');
    auth.subscribe(subject(messages.auth.login.subject), {
      callback: (_error, msg) => {
        signIns += 1;
        msg.respond(json.encode({ ok: true }));
      },
    });
    auth.subscribe(subject(messages.auth.health.subject), {
      callback: (_error, msg) => msg.respond(json.encode({ status: 'up', checks: {} })),
    });
    await auth.flush();
  });

  afterAll(async () => {
    await Promise.all(open.map((c) => c.close().catch(() => undefined)));
    await server?.close();
  });

  it('refuses a client without credentials, or with a wrong password', async () => {
    await expect(connect({ servers: server.url, reconnect: false })).rejects.toMatchObject({
      code: 'AUTHORIZATION_VIOLATION',
    });
    await expect(
      connect({
        servers: server.url,
        reconnect: false,
        user: natsUserName(namespace, 'gateway'),
        pass: 'guess',
      }),
    ).rejects.toMatchObject({ code: 'AUTHORIZATION_VIOLATION' });
  });

  it("lets the gateway call auth, and refuses inventory's credentials the same call", async () => {
    const gateway = await connectAs('gateway');
    const inventory = await connectAs('inventory');
    const login = subject(messages.auth.login.subject);

    await expect(inventory.request(login, json.encode({}), { timeout: 5000 })).rejects.toMatchObject({
      code: 'PERMISSIONS_VIOLATION',
    });
    const reply = await gateway.request(login, json.encode({}), { timeout: 5000 });
    expect(json.decode(reply.data)).toEqual({ ok: true });
    // Only the gateway's request got through.
    expect(signIns).toBe(1);
  });

  it("keeps other principals off a service's requests and the gateway's replies", async () => {
    const inventory = await connectAs('inventory');
    const refused = (s: string) =>
      new Promise<string>((resolve) => {
        inventory.subscribe(s, { callback: (error) => error && resolve(error.code) });
      });
    await expect(refused(subject(messages.auth.login.subject))).resolves.toBe('PERMISSIONS_VIOLATION');
    await expect(refused(`_INBOX_${namespace}_gateway.>`)).resolves.toBe('PERMISSIONS_VIOLATION');
    await expect(refused('_INBOX.>')).resolves.toBe('PERMISSIONS_VIOLATION');
  });

  it('lets only the monitor publish status events', async () => {
    const monitor = await jetStreamAs('monitor');
    const inventory = await jetStreamAs('inventory');
    const gateway = await connectAs('gateway');
    await monitor.ensureStream(streams.status);

    await expect(
      inventory.publish(events.statusChecked, check, { msgId: 'from-inventory' }),
    ).rejects.toMatchObject({
      code: 'PERMISSIONS_VIOLATION',
    });
    await expect(
      gateway.jetstream().publish(subject(events.statusChecked), json.encode(check), { timeout: 5000 }),
    ).rejects.toMatchObject({ code: 'PERMISSIONS_VIOLATION' });
    const ack = await monitor.publish(events.statusChecked, check, { msgId: 'from-monitor' });
    expect(ack.duplicate).toBe(false);

    const info = await monitor.jsm.streams.info(`${namespace}_${streams.status.name}`);
    expect(info.state.messages).toBe(1);
  });

  it('serves a request over the platform client under credentials', async () => {
    const rpc = rpcAs('gateway');
    await expect(rpc.send(messages.auth.health)).resolves.toEqual({ status: 'up', checks: {} });
  });

  it('fails a call its credentials may not send at once, not at its deadline', async () => {
    // Past the test's own limit: only NATS's refusal can end this call in time.
    const rpc = rpcAs('inventory', 120_000);
    await expect(rpc.send(messages.auth.login, { username: 'a', password: 'b' })).rejects.toMatchObject({
      code: ErrorCode.INTERNAL,
    });
  });

  it("streams inventory's chunked reply to the gateway, one reply per pull, under their permissions", async () => {
    const outcomes: string[] = [];
    const streamsServer = new ChunkStreamServer({
      rpc: rpcAs('inventory'),
      namespace,
      def: messages.inventory.reportChunk,
      idleMs: 60_000,
      max: 2,
      onEnd: (outcome) => outcomes.push(outcome),
    });
    await streamsServer.listen();
    open.push({ close: () => streamsServer.close() });
    const texts = ['header\r\n', 'a\r\n', 'b\r\n'];
    let next = 0;
    const source = {
      start: async () => undefined,
      next: async () => ({ text: texts[next++], last: next === texts.length }),
      cancel: async () => undefined,
    };
    const streamId = '00000000-0000-4000-8000-0000000000c1';
    await streamsServer.open(streamId, source);

    const gateway = rpcAs('gateway');
    let received = '';
    for await (const chunk of readChunks(gateway, messages.inventory.reportChunk, streamId, {
      timeoutMs: 5000,
    }))
      received += Buffer.from(chunk).toString();
    expect(received).toBe(texts.join(''));
    expect(outcomes).toEqual(['completed']);
  });
});
