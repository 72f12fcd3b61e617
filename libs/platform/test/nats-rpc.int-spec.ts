import { ErrorCode } from '@cm/contracts';
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { Controller, type INestMicroservice, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { AppError, NamespacedServerNats, RpcClient, RpcErrorFilter } from '../src';
import { testNamespace, testNatsUrl } from '../src/testing';

@Controller()
class ProbeController {
  @MessagePattern('probe.echo')
  echo(@Payload() data: unknown) {
    return { echoed: data };
  }

  @MessagePattern('probe.not-found')
  notFound(): never {
    throw new AppError(ErrorCode.ROOM_NOT_FOUND, 'No room with that id');
  }

  @MessagePattern('probe.crash')
  crash(): never {
    throw new Error('relation "rooms" does not exist');
  }

  @MessagePattern('probe.slow')
  async slow() {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    return 'late';
  }
}

@Module({ controllers: [ProbeController] })
class ProbeModule {}

describe(RpcClient.name, () => {
  const namespace = testNamespace('rpc');
  const exporter = new InMemorySpanExporter();
  let server: INestMicroservice;
  let sut: RpcClient;

  beforeAll(async () => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    trace.setGlobalTracerProvider(
      new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }),
    );

    server = await NestFactory.createMicroservice(ProbeModule, {
      strategy: new NamespacedServerNats(namespace, { servers: [testNatsUrl], queue: `${namespace}.probe` }),
      logger: false,
    });
    server.useGlobalFilters(new RpcErrorFilter());
    await server.listen();
    sut = new RpcClient({ namespace, servers: testNatsUrl, timeoutMs: 5000, name: 'rpc-test' });
  });

  afterAll(async () => {
    await sut.onApplicationShutdown();
    await server.close();
    trace.disable();
    propagation.disable();
    context.disable();
  });

  it('sends a request and returns the reply', async () => {
    await expect(sut.send('probe.echo', { room: '101' })).resolves.toEqual({ echoed: { room: '101' } });
  });

  it("passes the service's own error code and message through", async () => {
    await expect(sut.send('probe.not-found')).rejects.toMatchObject({
      code: ErrorCode.ROOM_NOT_FOUND,
      message: 'No room with that id',
    });
  });

  it('hides an unexpected failure behind a generic message', async () => {
    const error = await sut.send('probe.crash').catch((e: AppError) => e);
    expect(error).toMatchObject({ code: ErrorCode.INTERNAL });
    expect((error as AppError).message).not.toContain('relation');
  });

  it('gives up on a late reply with SERVICE_TIMEOUT', async () => {
    await expect(sut.send('probe.slow', {}, { timeoutMs: 200 })).rejects.toMatchObject({
      code: ErrorCode.SERVICE_TIMEOUT,
    });
  });

  it('answers SERVICE_UNAVAILABLE at once when nobody serves the pattern, long before the deadline', async () => {
    await expect(sut.send('probe.nobody-home', {}, { timeoutMs: 30_000 })).rejects.toMatchObject({
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
      await expect(other.send('probe.echo', {})).rejects.toMatchObject({
        code: ErrorCode.SERVICE_UNAVAILABLE,
      });
    } finally {
      await other.onApplicationShutdown();
    }
  });

  it('continues the caller trace on the service side through NATS headers', async () => {
    exporter.reset();
    await sut.send('probe.echo', {});
    const spans = exporter.getFinishedSpans();
    const client = spans.find((s) => s.name === 'nats request probe.echo');
    const handler = spans.find((s) => s.name === 'nats process probe.echo');
    expect(client).toBeDefined();
    expect(handler).toBeDefined();
    expect(handler!.spanContext().traceId).toBe(client!.spanContext().traceId);
    expect(handler!.parentSpanContext?.spanId).toBe(client!.spanContext().spanId);
  });
});
