import { platformMetrics } from '../../../libs/platform/src/metrics/platform-metrics';
import { EventMetrics } from '../../../services/gateway/src/events/event-metrics';
import { InventoryMetrics } from '../../../services/inventory/src/shared/metrics/inventory-metrics';
import { MonitorMetrics } from '../../../services/monitor/src/metrics/monitor-metrics';
import { ProbeMetrics } from '../../../services/monitor/src/metrics/probe-metrics';

/**
 * The source files that define prom-client metrics, each with the registries it gives. A new
 * module of metrics fails the check that lists them until it is added here.
 */
export const metricModules: Record<
  string,
  () => { getMetricsAsJSON(): Promise<{ name: string; type: unknown }[]> }
> = {
  'libs/platform/src/metrics/platform-metrics.ts': () => platformMetrics.registry,
  'services/gateway/src/events/event-metrics.ts': () => new EventMetrics().registry,
  'services/inventory/src/shared/metrics/inventory-metrics.ts': () => new InventoryMetrics().registry,
  'services/monitor/src/metrics/monitor-metrics.ts': () => new MonitorMetrics().registry,
  'services/monitor/src/metrics/probe-metrics.ts': () => new ProbeMetrics().registry,
};

/** Sample names a series type adds to its metric name in the Prometheus text format. */
const suffixes: Record<string, string[]> = {
  counter: [''],
  gauge: [''],
  histogram: ['_bucket', '_sum', '_count'],
  summary: ['', '_sum', '_count'],
};

/** Every metric name the services export, read from their registries. */
export async function exportedMetricNames(): Promise<Set<string>> {
  const names = new Set<string>();
  for (const registry of Object.values(metricModules)) {
    for (const { name, type } of await registry().getMetricsAsJSON()) {
      // prom-client's types call `type` an enum; at run time it is the name (`histogram`).
      for (const suffix of suffixes[String(type)] ?? ['']) names.add(`${name}${suffix}`);
    }
  }
  return names;
}

/**
 * Metrics of other exporters the rules may name: Prometheus's own `up`, and kube-state-metrics'
 * Deployment replica counts (docs/operations.md, Alerts, says that CmReplicaMissing needs it).
 */
export const externalMetrics = [
  'up',
  'kube_deployment_status_replicas_available',
  'kube_deployment_spec_replicas',
];
