import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { NextFunction, Request, Response } from 'express';
import { headers as natsHeaders } from 'nats';
import { httpTraceContext, injectTraceHeaders, JsonLogger } from '../src';
import { startTelemetry, stopTelemetry } from '../src/telemetry';

/**
 * Without a collector nothing instruments HTTP: the gateway's own middleware gives each request
 * the ids its log lines carry and its calls to other services pass on.
 */
describe('trace context of a request with no collector configured', () => {
  let server: Server;
  let url: string;
  const lines: Record<string, string>[] = [];

  beforeAll(async () => {
    startTelemetry({ serviceName: 'probe', env: {} });
    const logger = new JsonLogger('probe', 'info', (line) => lines.push(JSON.parse(line)));
    const withTrace = httpTraceContext();
    server = createServer((req: IncomingMessage, res: ServerResponse) =>
      withTrace(
        req as Request,
        res as unknown as Response,
        (() => {
          // Later in the request, past an await, as a controller would log and call a service.
          setImmediate(() => {
            logger.log('handled');
            res.end(injectTraceHeaders(natsHeaders()).get('traceparent'));
          });
        }) as NextFunction,
      ),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await stopTelemetry();
  });

  it("continues the caller's trace: its log line and the traceparent it sends on carry the caller's trace id", async () => {
    const caller = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    const sent = await (await fetch(url, { headers: { traceparent: caller } })).text();

    const [, traceId, spanId, flags] = sent.split('-');
    expect(traceId).toBe('0af7651916cd43dd8448eb211c80319c');
    expect(spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(spanId).not.toBe('b7ad6b7169203331');
    expect(flags).toBe('01');
    expect(lines.at(-1)).toMatchObject({ msg: 'handled', trace_id: traceId, span_id: spanId });
  });

  it('begins a trace of its own for a request that brings none, a new one each time', async () => {
    const first = (await (await fetch(url)).text()).split('-');
    const firstLine = lines.at(-1);
    const second = (await (await fetch(url)).text()).split('-');

    expect(first[1]).toMatch(/^[0-9a-f]{32}$/);
    expect(second[1]).toMatch(/^[0-9a-f]{32}$/);
    expect(second[1]).not.toBe(first[1]);
    expect(firstLine).toMatchObject({ trace_id: first[1], span_id: first[2] });
  });

  it('ignores a malformed traceparent rather than failing the request', async () => {
    const res = await fetch(url, { headers: { traceparent: 'not-a-trace' } });
    expect(res.status).toBe(200);
    expect((await res.text()).split('-')[1]).toMatch(/^[0-9a-f]{32}$/);
  });
});
