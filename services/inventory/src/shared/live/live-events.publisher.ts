import { randomUUID } from 'node:crypto';
import { events, type InventoryChangedEvent, type LiveEquipmentStatus } from '@cm/contracts';
import { JetStreamConnection } from '@cm/platform';
import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { InventoryMetrics } from '../metrics/inventory-metrics';

/** A status message can change thousands of devices: events stay well under NATS's 1 MB payload. */
const MAX_CHANGES_PER_EVENT = 2000;
/** The first wait before publishing what is held back again, doubled after each failure up to the next. */
export const LIVE_RETRY_FIRST_MS = 250;
export const LIVE_RETRY_MAX_MS = 10_000;
/** Record changes held back at most; beyond it the oldest are dropped (statuses are one per device). */
const MAX_HELD_CHANGES = 20_000;

/**
 * Tells open screens (through the gateway's `GET /api/events`) what inventory committed. Called
 * after the commit, never inside the transaction, and never makes the write fail.
 *
 * An event that cannot be published (NATS away, the stream not there) is held back and published
 * again, oldest first, until it goes: otherwise a screen would show a projector working until it
 * was reloaded, since the next check of a device that stays down changes nothing to announce.
 * While anything is held, new events join it rather than overtake it. Held statuses are kept one
 * per device, its latest, so a long outage costs at most one entry per device, and a screen gets
 * the status as it is now, not each one it passed through.
 */
@Injectable()
export class LiveEventsPublisher implements OnModuleDestroy {
  private readonly logger = new Logger(LiveEventsPublisher.name);
  private readonly heldStatuses = new Map<string, LiveEquipmentStatus>();
  private readonly heldChanges = new Map<string, InventoryChangedEvent>();
  private retry?: NodeJS.Timeout;
  private retryMs = LIVE_RETRY_FIRST_MS;
  private draining?: Promise<void>;

  constructor(
    private readonly jetstream: JetStreamConnection,
    private readonly metrics: InventoryMetrics,
  ) {}

  /** Not awaited by the request: the answer does not wait for the stream's acknowledgement. */
  inventoryChanged(event: InventoryChangedEvent): void {
    if (this.holding) return this.holdChange(event);
    void this.publish(events.liveInventoryChanged, event).then((sent) => sent || this.holdChange(event));
  }

  /** Equipment whose status changed in one commit: one event per batch, not per device. */
  async statusChanged(changes: LiveEquipmentStatus[]): Promise<void> {
    if (this.holding) return this.holdStatuses(changes);
    for (let i = 0; i < changes.length; i += MAX_CHANGES_PER_EVENT) {
      const part = changes.slice(i, i + MAX_CHANGES_PER_EVENT);
      if (!(await this.publish(events.liveEquipmentStatus, { changes: part })))
        return this.holdStatuses(changes.slice(i));
    }
  }

  /** How many events' worth are held back (statuses count one per device). */
  get held(): number {
    return this.heldStatuses.size + this.heldChanges.size;
  }

  onModuleDestroy(): void {
    clearTimeout(this.retry);
    if (this.held) this.logger.warn(`${this.held} live event(s) not published before the stop`);
  }

  private get holding(): boolean {
    return this.held > 0 || this.draining !== undefined;
  }

  private holdStatuses(changes: LiveEquipmentStatus[]): void {
    for (const change of changes) {
      // Re-inserted, so that the map's order stays the order of the latest changes.
      this.heldStatuses.delete(change.equipmentId);
      this.heldStatuses.set(change.equipmentId, change);
    }
    this.scheduleRetry();
  }

  private holdChange(event: InventoryChangedEvent): void {
    const key = `${event.kind}:${event.id}`;
    this.heldChanges.delete(key);
    this.heldChanges.set(key, event);
    if (this.heldChanges.size > MAX_HELD_CHANGES) {
      this.heldChanges.delete(this.heldChanges.keys().next().value!);
      this.logger.warn('Live events held back past their limit: the oldest record change is dropped');
    }
    this.scheduleRetry();
  }

  private scheduleRetry(): void {
    if (this.retry || this.draining) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.draining = this.drain().finally(() => {
        this.draining = undefined;
        if (this.held) this.scheduleRetry();
      });
    }, this.retryMs);
    this.retry.unref();
  }

  /** Publishes what is held, oldest first, until one fails; then waits longer before the next try. */
  private async drain(): Promise<void> {
    const before = this.held;
    for (const [key, event] of this.heldChanges) {
      if (!(await this.publish(events.liveInventoryChanged, event))) return this.backOff();
      // Held again meanwhile, for a later change: that one is still to go.
      if (this.heldChanges.get(key) === event) this.heldChanges.delete(key);
    }
    while (this.heldStatuses.size) {
      const part = [...this.heldStatuses.values()].slice(0, MAX_CHANGES_PER_EVENT);
      if (!(await this.publish(events.liveEquipmentStatus, { changes: part }))) return this.backOff();
      for (const change of part)
        if (this.heldStatuses.get(change.equipmentId) === change)
          this.heldStatuses.delete(change.equipmentId);
    }
    this.retryMs = LIVE_RETRY_FIRST_MS;
    this.logger.log(`Live events published after a delay (${before} held back)`);
  }

  private backOff(): void {
    this.retryMs = Math.min(this.retryMs * 2, LIVE_RETRY_MAX_MS);
  }

  private async publish(
    subject: typeof events.liveInventoryChanged | typeof events.liveEquipmentStatus,
    payload: InventoryChangedEvent | { changes: LiveEquipmentStatus[] },
  ): Promise<boolean> {
    try {
      // Nothing to de-duplicate: a redelivered status message changes no status a second time.
      await this.jetstream.publish(subject, payload as never, { msgId: randomUUID() });
      return true;
    } catch (error) {
      this.metrics.livePublishFailures.inc();
      // Once per outage: while events are held, each retry would say it again.
      if (!this.held)
        this.logger.warn(`Live events held back, NATS refused one (${subject}): ${String(error)}`);
      return false;
    }
  }
}
