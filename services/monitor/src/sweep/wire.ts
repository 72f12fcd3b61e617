import {
  type MessageDef,
  type MessagePayload,
  type MessageReply,
  type MessageRequest,
  namespacedSubject,
  type NoticeDef,
} from '@cm/contracts';
import { injectTraceHeaders } from '@cm/platform';
import { JSONCodec, type MsgHdrs, type NatsConnection, type Subscription } from 'nats';
import { type z } from 'zod';

const json = JSONCodec<unknown>();

/** The message's JSON, or undefined when it is not JSON (the schema check then refuses it). */
function decodeJson(data: Uint8Array): unknown {
  try {
    return json.decode(data);
  } catch {
    return undefined;
  }
}

/**
 * The replicas' protocol on core NATS, typed by the message registry (`messages.monitor`): a
 * request to one replica on the message's subject and its member id, and notices. Plain JSON, no
 * Nest envelope: replicas talk to each other, on the connection that publishes their results, not
 * to a message controller (RpcClient's requests go to a service's queue group instead).
 */
export class ReplicaWire {
  constructor(
    private readonly nc: NatsConnection,
    private readonly namespace: string,
  ) {}

  private subjectOf(subject: string, member?: string): string {
    return namespacedSubject(this.namespace, member === undefined ? subject : `${subject}.${member}`);
  }

  /**
   * Asks one replica, with the trace context in the headers. Answers the reply as its schema
   * parses it; throws NATS's timeout error, or the schema's error for a reply that fails it.
   */
  async ask<M extends MessageDef>(
    message: M,
    member: string,
    request: MessageRequest<M>,
    timeoutMs: number,
  ): Promise<MessageReply<M>> {
    const reply = await this.nc.request(this.subjectOf(message.subject, member), json.encode(request), {
      timeout: timeoutMs,
      headers: injectTraceHeaders(),
    });
    return message.reply.parse(decodeJson(reply.data)) as MessageReply<M>;
  }

  /**
   * Serves `message` addressed to `member`. `handle` gets each request as its schema parses it
   * (undefined when it fails), the request's headers, and `respond` for the reply, so that it
   * decides what runs before the asker hears back.
   */
  serve<M extends MessageDef>(
    message: M,
    member: string,
    handle: (
      request: MessagePayload<M> | undefined,
      respond: (reply: z.input<M['reply']>) => void,
      headers: MsgHdrs | undefined,
    ) => void,
    lost: (error: Error) => void,
  ): Subscription {
    return this.nc.subscribe(this.subjectOf(message.subject, member), {
      callback: (error, msg) => {
        if (error) return lost(error);
        const parsed = message.request.safeParse(decodeJson(msg.data));
        handle(
          parsed.success ? (parsed.data as MessagePayload<M>) : undefined,
          (reply) => msg.respond(json.encode(reply)),
          msg.headers,
        );
      },
    });
  }

  /** Publishes a notice: nobody answers, and a replica not listening at that moment misses it. */
  publish<N extends NoticeDef>(notice: N, payload: z.input<N['payload']>): void {
    this.nc.publish(this.subjectOf(notice.subject), json.encode(payload));
  }

  /** Hands `handle` each notice whose payload parses; others are dropped. */
  listen<N extends NoticeDef>(notice: N, handle: (payload: z.output<N['payload']>) => void): Subscription {
    return this.nc.subscribe(this.subjectOf(notice.subject), {
      callback: (error, msg) => {
        if (error) return;
        const parsed = notice.payload.safeParse(decodeJson(msg.data));
        if (parsed.success) handle(parsed.data as z.output<N['payload']>);
      },
    });
  }
}
