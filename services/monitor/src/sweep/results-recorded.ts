import { durableConsumers, namespacedName, streams } from '@cm/contracts';
import { isNotFound, JetStreamConnection } from '@cm/platform';
import { Injectable } from '@nestjs/common';

const POLL_MS = 100;

/**
 * Whether inventory has recorded a sweep's results (or a room check's readings): its durable
 * consumer acknowledges a message only after committing it, so once the consumer's ack floor
 * reaches the last stream sequence published every result is in the database.
 */
@Injectable()
export class ResultsRecorded {
  constructor(private readonly jetstream: JetStreamConnection) {}

  /**
   * Resolves true once recorded, false at the deadline. Also true when no inventory consumer
   * exists at all: then nothing will ever record them, and the check itself is done.
   */
  async waitFor(
    sequence: number,
    deadline: number,
    on: { stream: string; consumer: string } = {
      stream: streams.status.name,
      consumer: durableConsumers.inventoryStatus,
    },
  ): Promise<boolean> {
    if (sequence === 0) return true;
    const stream = namespacedName(this.jetstream.namespace, on.stream);
    for (;;) {
      let floor: number;
      try {
        const info = await this.jetstream.jsm.consumers.info(stream, on.consumer);
        floor = info.ack_floor.stream_seq;
      } catch (error) {
        if (isNotFound(error)) return true;
        throw error;
      }
      if (floor >= sequence) return true;
      if (Date.now() + POLL_MS > deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }
}
