/**
 * OpenTelemetry start-up. It is its own entry point (`@cm/platform/telemetry`) because it
 * must run before Nest, Express and pg are loaded for their instrumentation to apply.
 */
import { type ClientRequest, type IncomingMessage } from 'node:http';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import {
  AlwaysOffSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  type ReadableSpan,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { type Span } from '@opentelemetry/api';
import { ATTR_HTTP_ROUTE } from '@opentelemetry/semantic-conventions';
import { setSpansIdsOnly } from './light-spans';
import { onExit } from './shutdown';

/** Keeps spans (and so trace ids in logs) alive when no collector is configured. */
class DiscardingSpanProcessor implements SpanProcessor {
  onStart(): void {}
  onEnd(_span: ReadableSpan): void {}
  async forceFlush(): Promise<void> {}
  async shutdown(): Promise<void> {}
}

export interface TelemetryOptions {
  serviceName: string;
  /** Extra processors, e.g. an in-memory exporter in tests. */
  spanProcessors?: SpanProcessor[];
  env?: NodeJS.ProcessEnv;
}

let sdk: NodeSDK | undefined;

/** `GET /api/rooms/:id` rather than `GET`: the route Express matched, when one did. */
function nameByRoute(span: Span, request: ClientRequest | IncomingMessage): void {
  const { route, baseUrl, method } = request as IncomingMessage & {
    route?: { path?: unknown };
    baseUrl?: string;
  };
  if (!route || typeof route.path !== 'string') return;
  const path = `${baseUrl ?? ''}${route.path}`;
  span.setAttribute(ATTR_HTTP_ROUTE, path);
  span.updateName(`${method ?? 'GET'} ${path}`);
}

export function startTelemetry({
  serviceName,
  spanProcessors = [],
  env = process.env,
}: TelemetryOptions): NodeSDK {
  if (sdk) return sdk;
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT;
  const ratio = Number(env.OTEL_TRACES_SAMPLER_ARG ?? '1');
  const processors: SpanProcessor[] = [...spanProcessors];
  if (endpoint) {
    processors.push(
      new BatchSpanProcessor(new OTLPTraceExporter({ url: `${endpoint.replace(/\/$/, '')}/v1/traces` })),
    );
  }
  // With nowhere to send spans, none is recorded: trace and span ids are still made and passed on
  // (log lines carry them), but filling spans nobody reads cost several per cent of every request.
  const recording = processors.length > 0;
  if (!recording) processors.push(new DiscardingSpanProcessor());
  sdk = new NodeSDK({
    serviceName,
    spanProcessors: processors,
    sampler: new ParentBasedSampler({
      root: recording
        ? new TraceIdRatioBasedSampler(Number.isFinite(ratio) ? ratio : 1)
        : new AlwaysOffSampler(),
    }),
    // Without a collector nothing is instrumented: wrapping every request and query to fill spans
    // nobody reads was a tenth of the gateway's and a seventh of inventory's CPU per request. The
    // gateway's `httpTraceContext` and the NATS transports still make and pass on the ids.
    instrumentations: recording
      ? [
          new HttpInstrumentation({
            ignoreIncomingRequestHook: (req) => /^\/api\/(healthz|readyz)|^\/metrics/.test(req.url ?? ''),
            applyCustomAttributesOnSpan: nameByRoute,
          }),
          // No Express instrumentation: its span per middleware and the wrapper it puts around every
          // layer (even one it is told to ignore) were a tenth of the gateway's CPU per request, and
          // told nothing the HTTP, NATS and SQL spans do not. The route it named spans by is set above.
          new PgInstrumentation({ enhancedDatabaseReporting: false }),
        ]
      : [],
  });
  sdk.start();
  setSpansIdsOnly(!recording);
  // The batch goes out every 5 s: without a flush at exit, a process's last spans would be lost.
  onExit(stopTelemetry);
  return sdk;
}

export async function stopTelemetry(): Promise<void> {
  await sdk?.shutdown().catch(() => undefined);
  sdk = undefined;
  setSpansIdsOnly(false);
}
