import { context, trace, TraceFlags } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { JsonLogger } from './logger';

describe(JsonLogger.name, () => {
  beforeAll(() => context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable()));
  afterAll(() => context.disable());

  function capture(level: 'info' | 'error' = 'info') {
    const lines: string[] = [];
    return { lines, sut: new JsonLogger('inventory', level, (line) => lines.push(line)) };
  }

  it('writes one JSON object per line with service, level, context and message', () => {
    const { lines, sut } = capture();
    sut.log('Room created', 'RoomService');
    expect(JSON.parse(lines[0])).toMatchObject({
      level: 'info',
      service: 'inventory',
      context: 'RoomService',
      msg: 'Room created',
    });
  });

  it('carries the active trace and span ids', () => {
    const { lines, sut } = capture();
    const spanContext = {
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
      spanId: '00f067aa0ba902b7',
      traceFlags: TraceFlags.SAMPLED,
    };
    context.with(trace.setSpanContext(context.active(), spanContext), () => sut.warn('slow sweep'));
    expect(JSON.parse(lines[0])).toMatchObject({
      trace_id: spanContext.traceId,
      span_id: spanContext.spanId,
    });
  });

  it('drops lines below its level', () => {
    const { lines, sut } = capture('error');
    sut.log('noise');
    sut.error(new Error('broken'));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0])).toMatchObject({ level: 'error', msg: 'broken' });
  });
});
