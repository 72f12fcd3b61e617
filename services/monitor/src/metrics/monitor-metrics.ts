import { Registry } from '@cm/platform';
import { Injectable } from '@nestjs/common';

const secondsBuckets = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120];

/** What an SRE watches on each monitor replica, served at /metrics on its HTTP port. */
@Injectable()
export class MonitorMetrics {
  readonly registry = new Registry();

  readonly sweepDuration = this.registry.histogram(
    'cm_monitor_sweep_duration_seconds',
    'Time from firing a sweep to the last share reported, on the replica that fired it (the leader, or the one asked to check).',
    secondsBuckets,
  );
  readonly sweepInterval = this.registry.gauge(
    'cm_monitor_sweep_interval_seconds',
    'The sweep interval in force, to compare with the sweep duration.',
  );
  readonly sweepOverruns = this.registry.counter(
    'cm_monitor_sweep_overruns_total',
    'Scheduled sweeps that took longer than the interval: the next one started late rather than overlap.',
  );
  readonly sweeps = this.registry.counter(
    'cm_monitor_sweeps_total',
    'Sweeps fired by this replica, by reason (schedule, check) and outcome (complete, incomplete).',
  );
  readonly sweepTargets = this.registry.gauge(
    'cm_monitor_sweep_targets',
    'Equipment covered by the last sweep this replica fired.',
  );
  readonly shareDuration = this.registry.histogram(
    'cm_monitor_share_duration_seconds',
    'Time this replica took to ping its share of a sweep and publish the results.',
    secondsBuckets,
  );
  readonly targetsKnown = this.registry.gauge(
    'cm_monitor_targets',
    'Equipment with an address in this replica’s copy of the list.',
  );
  readonly equipmentChecked = this.registry.counter(
    'cm_monitor_equipment_checked_total',
    'Equipment this replica checked, by measured status (active, partial, inactive).',
  );
  readonly pings = this.registry.counter(
    'cm_monitor_pings_total',
    'Addresses this replica pinged, by result (answered, unanswered).',
  );
  readonly eventsPublished = this.registry.counter(
    'cm_monitor_status_events_published_total',
    'Status events the stream acknowledged.',
  );
  readonly publishFailures = this.registry.counter(
    'cm_monitor_status_event_publish_failures_total',
    'Status events the stream did not acknowledge in time.',
  );
  readonly reassigned = this.registry.counter(
    'cm_monitor_shares_reassigned_total',
    'Shares of a sweep handed to other replicas because their replica stopped or did not answer.',
  );
  readonly members = this.registry.gauge(
    'cm_monitor_members',
    'Live monitor replicas at the last sweep fired here.',
  );
  readonly leader = this.registry.gauge(
    'cm_monitor_leader',
    '1 while this replica holds the scheduler lease.',
  );
  readonly pingsInFlight = this.registry.gauge(
    'cm_monitor_pings_in_flight',
    'Echo requests awaiting a reply at the last scrape.',
  );
}
