import { Counter, Gauge, Histogram, Registry } from '@cm/platform';
import { Injectable } from '@nestjs/common';

const secondsBuckets = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120];

export interface MonitoringSnapshot {
  isRunning: boolean;
  /** Milliseconds. */
  interval: number;
  /** Epoch milliseconds of the last scheduled sweep, if any. */
  lastSweepAt?: number;
}

/** What an SRE watches on each monitor replica, served at /metrics on its HTTP port. */
@Injectable()
export class MonitorMetrics {
  readonly registry = new Registry();

  readonly sweepDuration = new Histogram({
    name: 'cm_monitor_sweep_duration_seconds',
    help: 'Time from firing a sweep to the last share reported, on the replica that fired it (the leader, or the one asked to check).',
    buckets: secondsBuckets,
    registers: [this.registry],
  });
  readonly sweepInterval = new Gauge({
    name: 'cm_monitor_sweep_interval_seconds',
    help: 'The sweep interval in force, to compare with the sweep duration.',
    registers: [this.registry],
  });
  readonly running = new Gauge({
    name: 'cm_monitor_running',
    help: '1 while monitoring is started (sweeps are due every interval), 0 while it is stopped or its state is lost and not yet restored from inventory; the same on every replica.',
    registers: [this.registry],
  });
  readonly lastSweep = new Gauge({
    name: 'cm_monitor_last_sweep_timestamp_seconds',
    help: 'When the leader last fired a scheduled sweep (Unix time), as every replica reads it from the shared state; 0 before the first.',
    registers: [this.registry],
  });
  readonly sweepOverruns = new Counter({
    name: 'cm_monitor_sweep_overruns_total',
    help: 'Scheduled sweeps that took longer than the interval: the next one started late rather than overlap.',
    registers: [this.registry],
  });
  readonly sweeps = new Counter({
    name: 'cm_monitor_sweeps_total',
    help: 'Sweeps fired by this replica, by reason (schedule, check) and outcome (complete, incomplete).',
    labelNames: ['outcome', 'reason'] as const,
    registers: [this.registry],
  });
  readonly sweepTargets = new Gauge({
    name: 'cm_monitor_sweep_targets',
    help: 'Equipment covered by the last sweep this replica fired.',
    registers: [this.registry],
  });
  readonly shareDuration = new Histogram({
    name: 'cm_monitor_share_duration_seconds',
    help: 'Time this replica took to ping its share of a sweep and publish the results.',
    buckets: secondsBuckets,
    registers: [this.registry],
  });
  readonly targetsKnown = new Gauge({
    name: 'cm_monitor_targets',
    help: 'Equipment with an address in this replica’s copy of the list.',
    registers: [this.registry],
  });
  readonly equipmentChecked = new Counter({
    name: 'cm_monitor_equipment_checked_total',
    help: 'Equipment this replica checked, by measured status (active, partial, inactive).',
    labelNames: ['status'] as const,
    registers: [this.registry],
  });
  readonly pings = new Counter({
    name: 'cm_monitor_pings_total',
    help: 'Addresses this replica pinged, by result (answered, unanswered).',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });
  readonly eventsPublished = new Counter({
    name: 'cm_monitor_status_events_published_total',
    help: 'Status events the stream acknowledged.',
    registers: [this.registry],
  });
  readonly publishFailures = new Counter({
    name: 'cm_monitor_status_event_publish_failures_total',
    help: 'Status events the stream did not acknowledge in time.',
    registers: [this.registry],
  });
  readonly reassigned = new Counter({
    name: 'cm_monitor_shares_reassigned_total',
    help: 'Shares of a sweep handed to other replicas because their replica stopped or did not answer.',
    registers: [this.registry],
  });
  readonly members = new Gauge({
    name: 'cm_monitor_members',
    help: 'Live monitor replicas at the last sweep fired here.',
    registers: [this.registry],
  });
  readonly liveMembers = new Gauge({
    name: 'cm_monitor_live_members',
    help: 'Monitor replicas whose membership is current in the shared state, read at each scrape; the same on every replica.',
    registers: [this.registry],
  });
  readonly leader = new Gauge({
    name: 'cm_monitor_leader',
    help: '1 while this replica holds the scheduler lease.',
    registers: [this.registry],
  });
  readonly pingsInFlight = new Gauge({
    name: 'cm_monitor_pings_in_flight',
    help: 'Echo requests awaiting a reply at the last scrape.',
    registers: [this.registry],
  });

  /**
   * The shared monitoring state, read at each scrape: every replica, leader or not, shows the
   * same, so an alert on a missing sweep does not depend on which replica leads or has just
   * restarted.
   */
  recordState({ isRunning, interval, lastSweepAt }: MonitoringSnapshot): void {
    this.running.set(isRunning ? 1 : 0);
    this.sweepInterval.set(interval / 1000);
    this.lastSweep.set((lastSweepAt ?? 0) / 1000);
  }
}
