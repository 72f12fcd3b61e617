import {
  type EquipmentChangedEvent,
  equipmentChangedEventSchema,
  events,
  namespacedName,
  namespacedSubject,
  streams,
} from '@cm/contracts';
import { JetStreamConnection } from '@cm/platform';
import { Injectable, Logger } from '@nestjs/common';
import { type ConsumerMessages, DeliverPolicy, JSONCodec } from 'nats';

const json = JSONCodec<unknown>();

export type EquipmentChangeListener = (event: EquipmentChangedEvent) => void;

/**
 * Inventory's equipment changes from now on, through one ordered consumer of this replica's,
 * handed to every list that follows them (the ping targets, the probe targets).
 */
@Injectable()
export class EquipmentChanges {
  private readonly logger = new Logger(EquipmentChanges.name);
  private readonly listeners: EquipmentChangeListener[] = [];
  private started?: Promise<void>;
  private messages?: ConsumerMessages;
  private following?: Promise<void>;
  private stopped = false;

  constructor(private readonly jetstream: JetStreamConnection) {}

  /** Called for each change, in stream order; register before `start` to miss none. */
  listen(listener: EquipmentChangeListener): void {
    this.listeners.push(listener);
  }

  /** Resolves once changes are followed; every caller shares the one consumer. */
  start(): Promise<void> {
    return (this.started ??= this.follow());
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.messages?.stop();
    await this.following;
  }

  private async follow(): Promise<void> {
    await this.jetstream.ensureStream(streams.equipment);
    const consumer = await this.jetstream.js.consumers.get(
      namespacedName(this.jetstream.namespace, streams.equipment.name),
      {
        // One subject as a string: a list needs NATS 2.10, and the call then never returns on 2.9.
        filterSubjects: namespacedSubject(this.jetstream.namespace, events.equipmentChanged),
        deliver_policy: DeliverPolicy.New,
      },
    );
    this.messages = await consumer.consume();
    const messages = this.messages;
    this.following = (async () => {
      for await (const msg of messages) {
        const parsed = equipmentChangedEventSchema.safeParse(json.decode(msg.data));
        if (!parsed.success) {
          this.logger.warn(`Ignored an equipment change that fails its schema (stream seq ${msg.seq})`);
          continue;
        }
        for (const listener of this.listeners) listener(parsed.data);
      }
    })().catch((error: unknown) => {
      if (!this.stopped) this.logger.error(`Following equipment changes stopped: ${String(error)}`);
    });
  }
}
