import {
  context,
  propagation,
  type Context,
  type TextMapGetter,
  type TextMapSetter,
} from '@opentelemetry/api';
import { headers as natsHeaders, type MsgHdrs } from 'nats';

const setter: TextMapSetter<MsgHdrs> = {
  set: (carrier, key, value) => carrier.set(key, value),
};

const getter: TextMapGetter<MsgHdrs | undefined> = {
  keys: (carrier) => (carrier ? carrier.keys() : []),
  get: (carrier, key) => carrier?.get(key) || undefined,
};

/** Writes the active W3C trace context (traceparent, tracestate) into NATS headers. */
export function injectTraceHeaders(
  target: MsgHdrs = natsHeaders(),
  ctx: Context = context.active(),
): MsgHdrs {
  propagation.inject(ctx, target, setter);
  return target;
}

/** Reads the caller's trace context from NATS headers. */
export function extractTraceContext(source: MsgHdrs | undefined, base: Context = context.active()): Context {
  return propagation.extract(base, source, getter);
}
