import { ErrorCode, message, namespacedSubject, query } from '@cm/contracts';
import { Controller, type INestMicroservice, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { connect } from 'nats';
import { filter, firstValueFrom } from 'rxjs';
import { z } from 'zod';
import { dispatchDirectly, HandleMessage, NamespacedServerNats, RpcClient } from '../src';
import { OwnNatsCluster, OwnNatsServer, testNamespace } from '../src/testing';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const counted = z.object({ n: z.number() });
const probe = {
  read: query('probe.read', z.object({}), counted),
  write: message('probe.write', z.object({}), counted),
  late: query('probe.late', z.object({}), counted),
};
/** How long each request is handled: long enough to lose a connection meanwhile. */
const HANDLING_MS = 1500;
const handled = { read: 0, write: 0 };

@Controller()
class SlowController {
  @HandleMessage(probe.read)
  async read() {
    const n = ++handled.read;
    await sleep(HANDLING_MS);
    return { n };
  }

  @HandleMessage(probe.write)
  async write() {
    const n = ++handled.write;
    await sleep(HANDLING_MS);
    return { n };
  }
}

@Module({ controllers: [SlowController] })
class SlowModule {}

describe('RpcClient when a NATS server is lost', () => {
  const namespace = testNamespace('reconnect');
  let cluster: OwnNatsCluster;
  let responder: INestMicroservice;
  const clients: RpcClient[] = [];
  const client = (servers: string, reconnectWaitMs?: number) => {
    const rpc = new RpcClient({
      namespace,
      servers,
      timeoutMs: 10_000,
      name: 'reconnect-test',
      reconnectWaitMs,
    });
    clients.push(rpc);
    return rpc;
  };
  /** A client on one server of the cluster, connected for over a second. */
  const settledClient = async (server: number) => {
    const rpc = client(cluster.servers[server].url);
    await rpc.ping();
    // nats.js dials a server it connected to less than a second ago (reconnectTimeWait) only once
    // that second is over; an older connection goes on to the next server at once.
    await sleep(1200);
    return rpc;
  };

  beforeAll(async () => {
    cluster = await OwnNatsCluster.start(3);
    // The service on n1, which is never killed.
    responder = await NestFactory.createMicroservice(SlowModule, {
      strategy: new NamespacedServerNats(namespace, {
        servers: [cluster.servers[1].url],
        queue: `${namespace}.probe`,
      }),
      logger: false,
    });
    await responder.listen();
  });

  beforeEach(() => {
    handled.read = 0;
    handled.write = 0;
  });

  afterAll(async () => {
    for (const rpc of clients) await rpc.onApplicationShutdown();
    await responder?.close();
    await cluster?.close();
  });

  it('sends a read again when its server is killed with the request in flight; a write, once, still gets its reply', async () => {
    const rpc = await settledClient(0);
    const read = rpc.send(probe.read, {});
    const write = rpc.send(probe.write, {});
    await sleep(HANDLING_MS / 3);
    expect(handled).toEqual({ read: 1, write: 1 });
    await cluster.servers[0].down('SIGKILL');

    // The read's reply would go to a connection that is gone: it is asked again on the new one,
    // and that answer is the caller's, well before the 10 s deadline.
    await expect(read).resolves.toEqual({ n: 2 });
    // The write is not sent again: the handler's reply reaches the caller on its new connection.
    await expect(write).resolves.toEqual({ n: 1 });
    expect(handled).toEqual({ read: 2, write: 1 });
  });

  it('holds a call made while its connection is lost until the client is on another server', async () => {
    const rpc = await settledClient(2);
    const sentWhileLost = firstValueFrom(rpc.status.pipe(filter((status) => status !== 'connected'))).then(
      () => rpc.send(probe.read, {}),
    );
    await cluster.servers[2].down('SIGKILL');
    await expect(sentWhileLost).resolves.toEqual({ n: 1 });
  });

  it('asks again, a few times, when NATS finds nobody serving the pattern', async () => {
    const rpc = client(cluster.servers[1].url);
    const asked = rpc.send(probe.late, {});
    await sleep(20);
    // A service that lost its server subscribes again on another a moment later.
    const late = await connect({ servers: cluster.servers[1].url, name: 'late-service' });
    try {
      late.subscribe(namespacedSubject(namespace, probe.late.subject), {
        callback: (_error, msg) => msg.respond(JSON.stringify({ response: { n: 7 } })),
      });
      await late.flush();
      await expect(asked).resolves.toEqual({ n: 7 });
    } finally {
      await late.close();
    }
  });

  it('refuses at once, without waiting for its deadline, once NATS has been away longer than the reconnect wait', async () => {
    const nats = await OwnNatsServer.start();
    try {
      const rpc = client(nats.url, 200);
      await rpc.ping();
      const lost = firstValueFrom(rpc.status.pipe(filter((status) => status !== 'connected')));
      await nats.down('SIGKILL');
      await lost;
      await sleep(300);
      // Waiting out the deadline would end in SERVICE_TIMEOUT, not this.
      await expect(rpc.send(probe.read, {})).rejects.toMatchObject({ code: ErrorCode.SERVICE_UNAVAILABLE });
    } finally {
      await nats.close();
    }
  });
});

describe('NamespacedServerNats when its NATS server is lost while it handles a request', () => {
  const namespace = testNamespace('held');
  const answer = query('probe.answer', z.object({}), counted);
  let lost: () => Promise<void> = () => Promise.resolve();
  let entered = () => {};

  @Controller()
  class AnsweringController {
    /** Answers only once the service has lost its connection (the reply waits for the next one). */
    @HandleMessage(answer)
    async answer() {
      entered();
      await lost();
      return { n: 1 };
    }
  }

  /**
   * Asks until the request reaches the handler. The service subscribes on another server of the
   * cluster, which tells the client's server of it a moment later: asked before, the request finds
   * no responder and is refused at once.
   */
  const askedAndHandling = async (rpc: RpcClient) => {
    for (;;) {
      const handling = new Promise<void>((resolve) => (entered = resolve));
      const asked = rpc.send(answer, {});
      const refused = asked.then(
        () => undefined,
        (error: unknown) => error,
      );
      const first = await Promise.race([handling.then(() => 'handling' as const), refused]);
      // Wrapped: an async function returning the promise itself would wait for its answer.
      if (first === 'handling') return { asked };
      if ((first as { code?: string })?.code !== ErrorCode.SERVICE_UNAVAILABLE) throw first;
      await sleep(50);
    }
  };

  @Module({ controllers: [AnsweringController] })
  class AnsweringModule {}

  it.each([
    ["through Nest's pipeline", false],
    ['called directly', true],
  ])(
    'sends the reply once reconnected, rather than losing it and leaving the caller to time out (%s)',
    async (_, direct) => {
      const cluster = await OwnNatsCluster.start(3);
      let service: INestMicroservice | undefined;
      const rpc = new RpcClient({
        namespace,
        servers: cluster.servers[0].url,
        // A lost reply shows as this deadline passing. It is long because a loaded machine takes
        // seconds to reconnect a service and carry its reply across the cluster.
        timeoutMs: 30_000,
        name: 'held-test',
      });
      try {
        await rpc.ping();
        const strategy = new NamespacedServerNats(namespace, {
          servers: [cluster.servers[1].url],
          queue: `${namespace}.probe`,
        });
        lost = () =>
          firstValueFrom(strategy.status.pipe(filter((status) => status !== 'connected'))).then(() => {});
        service = await NestFactory.createMicroservice(AnsweringModule, { strategy, logger: false });
        if (direct) {
          dispatchDirectly(service, strategy);
          expect(strategy.directSubjects()).toEqual([answer.subject]);
        }
        await service.listen();
        // A connection younger than a second (reconnectTimeWait) reconnects only after that second:
        // the reply is made well before, while the service has no connection.
        const { asked } = await askedAndHandling(rpc);
        await cluster.servers[1].down('SIGKILL');
        await expect(asked).resolves.toEqual({ n: 1 });
      } finally {
        await rpc.onApplicationShutdown();
        await service?.close();
        await cluster.close();
      }
    },
  );
});
