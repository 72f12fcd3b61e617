import { Counter, Gauge, Histogram, Registry } from '@cm/platform';
import { Injectable } from '@nestjs/common';

/** A probe takes from a few milliseconds to its timeout (8 s by default). */
const probeBuckets = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30];

/** The deep probes (PJLink, SNMP, …) of one monitor replica, served at /metrics. */
@Injectable()
export class ProbeMetrics {
  readonly registry = new Registry();

  readonly probes = new Counter({
    name: 'cm_monitor_probes_total',
    help: 'Device probes this replica ran, by probe type and outcome (answered, unreachable, auth-failed, protocol-error).',
    labelNames: ['type', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly duration = new Histogram({
    name: 'cm_monitor_probe_duration_seconds',
    help: 'Time one device probe took, connection to last answer or timeout, by probe type.',
    labelNames: ['type'] as const,
    buckets: probeBuckets,
    registers: [this.registry],
  });
  readonly startDelay = new Histogram({
    name: 'cm_monitor_probe_start_delay_seconds',
    help: 'How late probes started after they were due: waiting for a free slot (MONITOR_PROBE_CONCURRENCY) or for the device’s previous probe.',
    buckets: [0.01, 0.1, 0.5, 1, 5, 15, 60, 300],
    registers: [this.registry],
  });
  readonly inFlight = new Gauge({
    name: 'cm_monitor_probes_in_flight',
    help: 'Device probes under way at the last scrape.',
    registers: [this.registry],
  });
  readonly targets = new Gauge({
    name: 'cm_monitor_probe_targets',
    help: 'Equipment probed beyond ping in this replica’s copy of the list, by share: all, or this replica’s own.',
    labelNames: ['share'] as const,
    registers: [this.registry],
  });
  readonly readingsPublished = new Counter({
    name: 'cm_monitor_probe_readings_published_total',
    help: 'Probe readings the HEALTH stream acknowledged.',
    registers: [this.registry],
  });
  readonly readingsDropped = new Counter({
    name: 'cm_monitor_probe_readings_dropped_total',
    help: 'Probe readings given up: the stream did not acknowledge them after retries, or too many waited to be sent.',
    registers: [this.registry],
  });
}
