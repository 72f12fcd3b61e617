import { createServer, connect as tcpConnect, type Server, type Socket } from 'node:net';
import { connectPatiently, natsConnectionSettings, RpcClient } from '../src';
import { testNamespace, testNatsUrl } from '../src/testing';

/**
 * A NATS server as a loaded machine shows it: the first `silent` connections are accepted and
 * left without a word (the client's `timeout` runs out), the later ones reach the real server.
 */
async function slowNats(silent: number) {
  const { hostname, port } = new URL(testNatsUrl);
  const sockets = new Set<Socket>();
  let accepted = 0;
  const server: Server = createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => undefined);
    if (++accepted <= silent) return;
    const upstream = tcpConnect(Number(port), hostname);
    sockets.add(upstream);
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: own } = server.address() as { port: number };
  return {
    url: `nats://127.0.0.1:${own}`,
    accepted: () => accepted,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

describe('the first connection to NATS on a slow machine', () => {
  const closing: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const close of closing.splice(0).reverse()) await close();
  });

  it('is tried again while the servers answer too slowly, and then made', async () => {
    const nats = await slowNats(2);
    closing.push(nats.close);
    const nc = await connectPatiently({ servers: nats.url, ...natsConnectionSettings, timeout: 300 });
    closing.push(() => nc.close());
    await nc.flush();
    // Past the two silent servers; a loaded machine may also time out a try that reached the real
    // server (300 ms is short), which is tried again the same way.
    expect(nats.accepted()).toBeGreaterThanOrEqual(3);
  });

  it('lets a service client start whose first tries time out', async () => {
    const nats = await slowNats(1);
    closing.push(nats.close);
    const rpc = new RpcClient({
      namespace: testNamespace('first-connect'),
      servers: nats.url,
      timeoutMs: 5000,
      name: 'first-connect-test',
    });
    closing.push(() => rpc.onApplicationShutdown());
    // Nest's client connects with natsConnectionSettings' 2 s timeout; the first try gets nothing.
    await rpc.ping();
    expect(nats.accepted()).toBeGreaterThanOrEqual(2);
  });

  it('gives up at its deadline when the servers never answer', async () => {
    const nats = await slowNats(Infinity);
    closing.push(nats.close);
    await expect(
      connectPatiently({ servers: nats.url, ...natsConnectionSettings, timeout: 200 }, 1000),
    ).rejects.toMatchObject({ code: 'TIMEOUT' });
    expect(nats.accepted()).toBeGreaterThan(1);
  });

  it('fails at once when nothing listens: a wrong NATS_URL is not waited out', async () => {
    const nats = await slowNats(0);
    const { url } = nats;
    await nats.close();
    await expect(connectPatiently({ servers: url, ...natsConnectionSettings })).rejects.toMatchObject({
      code: 'CONNECTION_REFUSED',
    });
  });
});
