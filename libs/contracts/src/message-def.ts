import { z } from 'zod';

/**
 * One request/reply pattern: the subject it travels on, what the caller sends and what comes
 * back. Callers (`RpcClient.send`) and handlers (`@HandleMessage`) both take it from here, so
 * neither can name a subject without its schemas.
 */
export interface MessageDef<Req extends z.ZodType = z.ZodType, Reply extends z.ZodType = z.ZodType> {
  readonly subject: string;
  readonly request: Req;
  readonly reply: Reply;
  /**
   * The handler only reads: handling the request twice changes nothing, so a caller may send it
   * again when the first may have been lost (its connection to NATS dropped before the reply).
   */
  readonly readOnly?: boolean;
}

export function message<Req extends z.ZodType, Reply extends z.ZodType>(
  subject: string,
  request: Req,
  reply: Reply,
): MessageDef<Req, Reply> {
  return { subject, request, reply };
}

/** A message whose handler only reads (`readOnly`): nothing it does may change any state. */
export function query<Req extends z.ZodType, Reply extends z.ZodType>(
  subject: string,
  request: Req,
  reply: Reply,
): MessageDef<Req, Reply> {
  return { subject, request, reply, readOnly: true };
}

/** Published on core NATS for whoever listens: nobody answers, and it may be lost. */
export interface NoticeDef<Payload extends z.ZodType = z.ZodType> {
  readonly subject: string;
  readonly payload: Payload;
}

export function notice<Payload extends z.ZodType>(subject: string, payload: Payload): NoticeDef<Payload> {
  return { subject, payload };
}

/** What a caller sends: the request schema's input, so fields with a default may be left out. */
export type MessageRequest<M extends MessageDef> = z.input<M['request']>;
/** What a handler receives: the request as its schema parsed it. */
export type MessagePayload<M extends MessageDef> = z.output<M['request']>;
/** What a caller receives: the reply as its schema parsed it. */
export type MessageReply<M extends MessageDef> = z.output<M['reply']>;

/** Patterns that take no arguments still get an object, so that a stray value is refused. */
export const noArguments = z.object({});
