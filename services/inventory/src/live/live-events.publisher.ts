import { randomUUID } from 'node:crypto';
import { events, type InventoryChangedEvent, type LiveEquipmentStatus } from '@cm/contracts';
import { JetStreamConnection } from '@cm/platform';
import { Injectable, Logger } from '@nestjs/common';

/** A status message can change thousands of devices: events stay well under NATS's 1 MB payload. */
const MAX_CHANGES_PER_EVENT = 2000;

/**
 * Tells open screens (through the gateway's `GET /api/events`) what inventory committed. Called
 * after the commit, never inside the transaction. A live event that cannot be published is
 * logged and lost: the write it follows stands, and screens catch up on their next load.
 */
@Injectable()
export class LiveEventsPublisher {
  private readonly logger = new Logger(LiveEventsPublisher.name);

  constructor(private readonly jetstream: JetStreamConnection) {}

  /** Not awaited by the request: the answer does not wait for the stream's acknowledgement. */
  inventoryChanged(event: InventoryChangedEvent): void {
    void this.publish(events.liveInventoryChanged, event);
  }

  /** Equipment whose status changed in one commit: one event per batch, not per device. */
  async statusChanged(changes: LiveEquipmentStatus[]): Promise<void> {
    for (let i = 0; i < changes.length; i += MAX_CHANGES_PER_EVENT) {
      await this.publish(events.liveEquipmentStatus, {
        changes: changes.slice(i, i + MAX_CHANGES_PER_EVENT),
      });
    }
  }

  private async publish(
    subject: typeof events.liveInventoryChanged | typeof events.liveEquipmentStatus,
    payload: InventoryChangedEvent | { changes: LiveEquipmentStatus[] },
  ): Promise<void> {
    try {
      // Nothing to de-duplicate: a redelivered status message changes no status a second time.
      await this.jetstream.publish(subject, payload as never, { msgId: randomUUID() });
    } catch (error) {
      this.logger.warn(`A live event (${subject}) was not published: ${String(error)}`);
    }
  }
}
