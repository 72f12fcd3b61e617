import { ErrorCode, message, type MessagePayload } from '@cm/contracts';
import { Controller, type INestMicroservice, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { type CustomTransportStrategy, Server } from '@nestjs/microservices';
import { lastValueFrom } from 'rxjs';
import { z } from 'zod';
import { RpcErrorFilter } from '../rpc-error.filter';
import { HandleMessage } from './handle-message';

const rename = message(
  'probe.rename',
  z.object({ id: z.uuid(), name: z.string().trim().min(1, { message: 'Name is required' }) }),
  z.object({ id: z.uuid(), name: z.string() }),
);
const ping = message('probe.ping', z.object({}), z.object({ pong: z.literal(true) }));

@Controller()
class ProbeMessageController {
  readonly received: unknown[] = [];

  @HandleMessage(rename)
  rename(payload: MessagePayload<typeof rename>) {
    this.received.push(payload);
    return payload;
  }

  @HandleMessage(ping)
  ping() {
    this.received.push('ping');
    return { pong: true as const };
  }
}

/** Never run: tsc refuses a handler whose parameter or answer breaks its message. */
export class MistypedMessageController {
  // @ts-expect-error the payload is an id and a name, not a room id
  @HandleMessage(rename)
  byRoom(payload: { roomId: string }) {
    return { id: payload.roomId, name: '' };
  }

  // @ts-expect-error the answer lacks the name
  @HandleMessage(rename)
  incomplete(payload: MessagePayload<typeof rename>) {
    return Promise.resolve({ id: payload.id });
  }
}

@Module({ controllers: [ProbeMessageController] })
class ProbeModule {}

/** Hands a message straight to the handler Nest registered for its subject, with no broker. */
class InMemoryTransport extends Server implements CustomTransportStrategy {
  listen(callback: () => void) {
    callback();
  }
  close() {}
  on() {}
  unwrap<T>(): T {
    throw new Error('no client to unwrap');
  }

  async request(subject: string, data: unknown): Promise<unknown> {
    const handler = this.getHandlerByPattern(subject);
    if (!handler) throw new Error(`nothing handles ${subject}`);
    return lastValueFrom(this.transformToObservable(await handler(data)));
  }
}

describe(HandleMessage.name, () => {
  const transport = new InMemoryTransport();
  let app: INestMicroservice;
  let controller: ProbeMessageController;

  beforeAll(async () => {
    app = await NestFactory.createMicroservice(ProbeModule, { strategy: transport, logger: false });
    app.useGlobalFilters(new RpcErrorFilter());
    await app.listen();
    controller = app.get(ProbeMessageController);
  });

  afterAll(() => app.close());

  beforeEach(() => controller.received.splice(0));

  it("subscribes to the message's subject and hands the handler the parsed payload", async () => {
    const id = '3f9e0a52-8a3e-4a2f-9c1e-6f1f0b2d7c11';
    await expect(transport.request(rename.subject, { id, name: '  Room 101 ' })).resolves.toEqual({
      id,
      name: 'Room 101',
    });
    expect(controller.received).toEqual([{ id, name: 'Room 101' }]);
  });

  it('answers a payload that fails the request schema with VALIDATION_FAILED, without calling the handler', async () => {
    const failure = await transport.request(rename.subject, { id: '12', name: ' ' }).catch((e: unknown) => e);
    expect(failure).toEqual({
      code: ErrorCode.VALIDATION_FAILED,
      message: expect.stringContaining('Name is required'),
      errors: expect.arrayContaining([
        expect.objectContaining({ path: 'id' }),
        { path: 'name', message: 'Name is required' },
      ]),
    });
    expect(controller.received).toEqual([]);
  });

  it('validates the payload of a handler that takes none', async () => {
    await expect(transport.request(ping.subject, {})).resolves.toEqual({ pong: true });
    await expect(transport.request(ping.subject, 'stray')).rejects.toMatchObject({
      code: ErrorCode.VALIDATION_FAILED,
    });
    expect(controller.received).toEqual(['ping']);
  });
});
