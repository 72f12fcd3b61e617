import { randomBytes } from 'node:crypto';
import {
  context,
  isSpanContextValid,
  type Span,
  type SpanOptions,
  trace,
  TraceFlags,
  type Tracer,
} from '@opentelemetry/api';

/** 4 KiB of random bytes at a time, cut into ids (24 bytes a request): one system call per 170 requests. */
let pool = Buffer.alloc(0);
let offset = 0;
export function randomHex(bytes: number): string {
  if (offset + bytes > pool.length) {
    pool = randomBytes(4096);
    offset = 0;
  }
  const hex = pool.toString('hex', offset, offset + bytes);
  offset += bytes;
  return hex;
}

/** A span that records nothing, child of the active context's (or the first of a new trace). */
export function idOnlySpan(): Span {
  const parent = trace.getSpanContext(context.active());
  return trace.wrapSpanContext({
    traceId: parent && isSpanContextValid(parent) ? parent.traceId : randomHex(16),
    spanId: randomHex(8),
    traceFlags: parent?.traceFlags ?? TraceFlags.NONE,
  });
}

let idsOnly = false;

/**
 * Set by `startTelemetry`: true when no span is recorded (no collector, no processor), so that
 * `startActiveSpanLightly` makes ids only.
 */
export function setSpansIdsOnly(on: boolean): void {
  idsOnly = on;
}

/**
 * `tracer.startActiveSpan`, except when nothing records spans: then the span is only its ids (a new
 * span id, the parent's trace id and flags), made without the SDK's sampler, attribute checks and
 * span object, so that log lines and calls onward carry the same kind of ids at a fraction of the
 * cost (the SDK's span was about 4 % of inventory's CPU per message). Attributes and status set on
 * such a span are dropped, as on any span that is not recorded.
 */
export function startActiveSpanLightly<T>(
  tracer: Tracer,
  name: string,
  options: SpanOptions,
  fn: (span: Span) => T,
): T {
  if (!idsOnly) return tracer.startActiveSpan(name, options, fn);
  const span = idOnlySpan();
  return context.with(trace.setSpan(context.active(), span), fn, undefined, span);
}
