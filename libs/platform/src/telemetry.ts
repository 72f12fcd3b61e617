/**
 * OpenTelemetry start-up. It is its own entry point (`@cm/platform/telemetry`) because it
 * must run before Nest, Express and pg are loaded for their instrumentation to apply.
 */
import { NodeSDK } from '@opentelemetry/sdk-node';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { ExpressInstrumentation } from '@opentelemetry/instrumentation-express';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import {
  BatchSpanProcessor,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  type ReadableSpan,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
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
  if (processors.length === 0) processors.push(new DiscardingSpanProcessor());
  sdk = new NodeSDK({
    serviceName,
    spanProcessors: processors,
    sampler: new ParentBasedSampler({
      root: new TraceIdRatioBasedSampler(Number.isFinite(ratio) ? ratio : 1),
    }),
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req) => /^\/api\/(healthz|readyz)|^\/metrics/.test(req.url ?? ''),
      }),
      new ExpressInstrumentation(),
      new PgInstrumentation({ enhancedDatabaseReporting: false }),
    ],
  });
  sdk.start();
  // The batch goes out every 5 s: without a flush at exit, a process's last spans would be lost.
  onExit(stopTelemetry);
  return sdk;
}

export async function stopTelemetry(): Promise<void> {
  await sdk?.shutdown().catch(() => undefined);
  sdk = undefined;
}
