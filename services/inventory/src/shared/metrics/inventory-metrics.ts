import { Counter, Gauge, Registry } from '@cm/platform';
import { Injectable } from '@nestjs/common';

/**
 * What an SRE watches on each inventory replica, served with the platform's at /metrics. A
 * registry of the app's own: tests host several replicas in one process.
 */
@Injectable()
export class InventoryMetrics {
  readonly registry = new Registry();

  readonly outboxEvents = new Gauge({
    name: 'cm_inventory_outbox_events',
    help: 'Equipment changes committed and not yet published to the monitor (the outbox), at the last scrape; the same on every replica.',
    registers: [this.registry],
  });
  readonly outboxOldestAge = new Gauge({
    name: 'cm_inventory_outbox_oldest_age_seconds',
    help: 'Age of the oldest equipment change not yet published to the monitor, at the last scrape; 0 when none waits.',
    registers: [this.registry],
  });
  readonly deliveryFailures = new Counter({
    name: 'cm_inventory_notification_delivery_failures_total',
    help: "Attempts to send an alert notification that failed (retried later, or given up), by channel type; the test button's are not counted.",
    labelNames: ['channel_type'] as const,
    registers: [this.registry],
  });
  readonly deliveriesGivenUp = new Counter({
    name: 'cm_inventory_notification_deliveries_given_up_total',
    help: "Alert notifications given up unsent after their last attempt failed (or did not finish), by channel type; the test button's are not counted.",
    labelNames: ['channel_type'] as const,
    registers: [this.registry],
  });
  readonly livePublishFailures = new Counter({
    name: 'cm_inventory_live_event_publish_failures_total',
    help: 'Live events (for open screens) NATS refused or did not acknowledge; they are held back and sent again.',
    registers: [this.registry],
  });
  readonly reportStreams = new Counter({
    name: 'cm_inventory_report_streams_total',
    help: 'Uptime CSV downloads (one COPY of the query each), by how they ended: completed, cancelled (the download stopped), failed, abandoned (left unpulled).',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly liveHeld = new Gauge({
    name: 'cm_inventory_live_events_held',
    help: 'Live events held back, waiting for NATS to take them (statuses count one per device), at the last scrape.',
    registers: [this.registry],
  });
}
