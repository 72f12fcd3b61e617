import { context, isSpanContextValid, propagation, trace, TraceFlags } from '@opentelemetry/api';
import type { NextFunction, Request, Response } from 'express';
import { randomHex } from './light-spans';

/**
 * The request's trace context when no collector is configured, so that nothing instruments HTTP:
 * the caller's `traceparent` is continued (or a trace begun) with a span that records nothing, so
 * log lines carry trace and span ids and calls to other services pass them on, as with the full
 * instrumentation, at a small part of its cost. When the instrumentation runs it has already made
 * the request's span, and this leaves it alone.
 */
export function httpTraceContext() {
  return (req: Request, _res: Response, next: NextFunction): void => {
    if (trace.getActiveSpan()) return next();
    const parent = trace.getSpanContext(propagation.extract(context.active(), req.headers));
    const span = trace.wrapSpanContext({
      traceId: parent && isSpanContextValid(parent) ? parent.traceId : randomHex(16),
      spanId: randomHex(8),
      traceFlags: parent?.traceFlags ?? TraceFlags.NONE,
    });
    context.with(trace.setSpan(context.active(), span), next);
  };
}
