import { Injectable } from '@nestjs/common';
import { OnInventoryEvent } from '../../shared/events/inventory-event-bus';
import { type InventoryEvents } from '../../shared/events/inventory-events';
import { LiveEventsPublisher } from '../../shared/live/live-events.publisher';

/** Open screens hear of the statuses a batch of checks changed, once it commits. */
@Injectable()
export class StatusLive {
  constructor(private readonly live: LiveEventsPublisher) {}

  @OnInventoryEvent('status.changed')
  async changed({ changes }: InventoryEvents['status.changed']): Promise<void> {
    await this.live.statusChanged(changes);
  }
}
