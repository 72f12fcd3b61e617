import { type MessageDef, type MessagePayload } from '@cm/contracts';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { type z } from 'zod';
import { ZodPipe } from '../validation';

/** What a handler may answer: the reply schema's input, since the caller parses it. */
type MessageAnswer<M extends MessageDef> = z.input<M['reply']> | Promise<z.input<M['reply']>>;

export type MessageHandler<M extends MessageDef> = (payload: MessagePayload<M>) => MessageAnswer<M>;

/** A method `HandleMessage` decorated: its class, its name, its message and the pipe it checks with. */
export interface HandledMessage {
  controller: new (...args: never[]) => unknown;
  key: string | symbol;
  message: MessageDef;
  pipe: ZodPipe<z.ZodType>;
}

/** Every method `HandleMessage` decorated, so that the NATS server can call them directly. */
const handled: HandledMessage[] = [];

/** The methods `HandleMessage` decorated in the classes loaded so far. */
export const handledMessages = (): readonly HandledMessage[] => handled;

/**
 * Handles one request/reply message: subscribes to its subject and hands the method the payload
 * parsed with the request schema (a VALIDATION_FAILED AppError otherwise, as `ZodPipe` gives).
 * The compiler checks the method's parameter against the request and its result against the
 * reply. The pipe is bound to the first parameter, so a method that takes none is still only
 * called with a valid payload.
 */
export function HandleMessage<M extends MessageDef>(message: M) {
  const pattern = MessagePattern(message.subject);
  const pipe = new ZodPipe(message.request);
  const payload = Payload(pipe);
  // Generic in the method's own type: a descriptor of the exact handler type would have to match
  // it exactly (a descriptor's `set` makes it invariant), where assignable is what is meant.
  return <H extends MessageHandler<M>>(
    target: object,
    key: string | symbol,
    descriptor: TypedPropertyDescriptor<H>,
  ): void => {
    pattern(target, key, descriptor);
    payload(target, key, 0);
    handled.push({ controller: target.constructor as HandledMessage['controller'], key, message, pipe });
  };
}
