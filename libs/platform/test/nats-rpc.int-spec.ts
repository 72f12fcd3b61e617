import { ErrorCode, message, type MessagePayload, notice } from '@cm/contracts';
import { context, propagation, SpanKind, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { Controller, type INestMicroservice, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern } from '@nestjs/microservices';
import { z } from 'zod';
import {
  AppError,
  dispatchDirectly,
  HandleMessage,
  NamespacedServerNats,
  RpcClient,
  RpcErrorFilter,
} from '../src';
import { eventually, testNamespace, testNatsUrl } from '../src/testing';

const nothing = z.object({});
const probe = {
  echo: message('probe.echo', z.object({ room: z.string().optional() }), z.object({ echoed: z.unknown() })),
  notFound: message('probe.not-found', nothing, z.never()),
  crash: message('probe.crash', nothing, z.never()),
  slow: message('probe.slow', nothing, z.literal('late')),
  /** Served by a bare pattern (@HandleMessage would not compile): it answers a number for the name. */
  offContract: message('probe.off-contract', nothing, z.object({ name: z.string() })),
  nobodyHome: message('probe.nobody-home', nothing, nothing),
};

@Controller()
class ProbeController {
  @HandleMessage(probe.echo)
  echo(data: MessagePayload<typeof probe.echo>) {
    return { echoed: data };
  }

  @HandleMessage(probe.notFound)
  notFound(): never {
    throw new AppError(ErrorCode.ROOM_NOT_FOUND, 'No room with that id');
  }

  @HandleMessage(probe.crash)
  crash(): never {
    throw new Error('relation "rooms" does not exist');
  }

  @HandleMessage(probe.slow)
  async slow() {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    return 'late' as const;
  }

  @MessagePattern(probe.offContract.subject)
  offContract() {
    return { name: 42 };
  }
}

@Module({ controllers: [ProbeController] })
class ProbeModule {}

// The tracer the transport got when loaded stays with the first provider set: one for the file.
const exporter = new InMemorySpanExporter();

beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(
    new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }),
  );
});

afterAll(() => {
  trace.disable();
  propagation.disable();
  context.disable();
});

// Services' handlers are called directly (bootstrapService); Nest's pipeline answers the same.
describe.each([
  ["through Nest's pipeline", false],
  ['called directly', true],
])('RpcClient, handlers %s', (_, direct) => {
  const namespace = testNamespace('rpc');
  let server: INestMicroservice;
  let sut: RpcClient;

  beforeAll(async () => {
    const strategy = new NamespacedServerNats(namespace, {
      servers: [testNatsUrl],
      queue: `${namespace}.probe`,
    });
    server = await NestFactory.createMicroservice(ProbeModule, { strategy, logger: false });
    server.useGlobalFilters(new RpcErrorFilter());
    if (direct) {
      dispatchDirectly(server, strategy);
      // What @HandleMessage declares; the bare pattern stays with Nest.
      expect(strategy.directSubjects().sort()).toEqual(
        [probe.crash, probe.echo, probe.notFound, probe.slow].map((m) => m.subject),
      );
    }
    await server.listen();
    sut = new RpcClient({ namespace, servers: testNatsUrl, timeoutMs: 5000, name: 'rpc-test' });
  });

  afterAll(async () => {
    await sut.onApplicationShutdown();
    await server.close();
  });

  it('hands every listener each notice, and refuses to send one off its schema', async () => {
    const changed = notice('probe.changed', z.object({ id: z.string() }));
    const other = new RpcClient({ namespace, servers: testNatsUrl, timeoutMs: 5000, name: 'rpc-test-2' });
    const heard: string[] = [];
    const refused = (error: Error) => heard.push(`refused: ${error.message}`);
    try {
      const subscriptions = await Promise.all([
        sut.listen(changed, ({ id }) => heard.push(`a:${id}`), refused),
        other.listen(changed, ({ id }) => heard.push(`b:${id}`), refused),
      ]);
      await expect(other.notify(changed, { id: 42 } as never)).rejects.toThrow();
      await other.notify(changed, { id: 'x' });
      await eventually(() => expect([...heard].sort()).toEqual(['a:x', 'b:x']), 5000, 20);
      for (const subscription of subscriptions) subscription.unsubscribe();
    } finally {
      await other.onApplicationShutdown();
    }
  });

  it('sends a request and returns the reply', async () => {
    await expect(sut.send(probe.echo, { room: '101' })).resolves.toEqual({ echoed: { room: '101' } });
  });

  it("passes the service's own error code and message through", async () => {
    await expect(sut.send(probe.notFound)).rejects.toMatchObject({
      code: ErrorCode.ROOM_NOT_FOUND,
      message: 'No room with that id',
    });
  });

  it('hides an unexpected failure behind a generic message', async () => {
    const error = await sut.send(probe.crash).catch((e: AppError) => e);
    expect(error).toMatchObject({ code: ErrorCode.INTERNAL });
    expect((error as AppError).message).not.toContain('relation');
  });

  it('refuses a reply that breaks its schema: the caller gets INTERNAL, not the wrong value', async () => {
    const error = await sut.send(probe.offContract).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: ErrorCode.INTERNAL });
  });

  it('refuses a request that breaks its schema with VALIDATION_FAILED from the handler', async () => {
    await expect(sut.send(probe.echo, { room: 101 } as never)).rejects.toMatchObject({
      code: ErrorCode.VALIDATION_FAILED,
    });
  });

  it('gives up on a late reply with SERVICE_TIMEOUT', async () => {
    await expect(sut.send(probe.slow, {}, { timeoutMs: 200 })).rejects.toMatchObject({
      code: ErrorCode.SERVICE_TIMEOUT,
    });
  });

  it('answers SERVICE_UNAVAILABLE at once when nobody serves the pattern, long before the deadline', async () => {
    await expect(sut.send(probe.nobodyHome, {}, { timeoutMs: 30_000 })).rejects.toMatchObject({
      code: ErrorCode.SERVICE_UNAVAILABLE,
      message: 'The probe service is unavailable. Try again shortly.',
    });
  });

  it('keeps namespaces apart: another stack does not reach this one', async () => {
    const other = new RpcClient({
      namespace: testNamespace('other'),
      servers: testNatsUrl,
      timeoutMs: 30_000,
      name: 'x',
    });
    try {
      await expect(other.send(probe.echo, {})).rejects.toMatchObject({
        code: ErrorCode.SERVICE_UNAVAILABLE,
      });
    } finally {
      await other.onApplicationShutdown();
    }
  });

  it('refuses calls once closed rather than opening a connection nothing would close', async () => {
    const natsSockets = () =>
      (process as unknown as { _getActiveHandles(): { remotePort?: number }[] })
        ._getActiveHandles()
        .filter((h) => h.remotePort === Number(new URL(testNatsUrl).port || 4222)).length;
    const stopping = new RpcClient({ namespace, servers: testNatsUrl, timeoutMs: 5000, name: 'stopping' });
    await expect(stopping.send(probe.echo, { room: '204' })).resolves.toEqual({ echoed: { room: '204' } });
    await stopping.onApplicationShutdown();
    const before = natsSockets();

    // A notice or a call still made while the service stops.
    await expect(stopping.send(probe.echo, {})).rejects.toMatchObject({
      code: ErrorCode.SERVICE_UNAVAILABLE,
    });
    await expect(
      stopping.notify(notice('probe.stopping', z.object({ room: z.string() })), { room: '204' }),
    ).rejects.toThrow();

    expect(natsSockets()).toBe(before);
  });

  it('continues the caller trace on the service side through NATS headers', async () => {
    exporter.reset();
    await sut.send(probe.echo, {});
    const spans = exporter.getFinishedSpans();
    const client = spans.find((s) => s.name === 'nats request probe.echo');
    const handler = spans.find((s) => s.name === 'nats process probe.echo');
    // The caller's span is the client side of the call, the handler's the server side.
    expect([client?.kind, handler?.kind]).toEqual([SpanKind.CLIENT, SpanKind.SERVER]);
    expect(handler!.spanContext().traceId).toBe(client!.spanContext().traceId);
    expect(handler!.parentSpanContext?.spanId).toBe(client!.spanContext().spanId);
  });
});
