import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { durableConsumers, streams } from '../../libs/contracts/src/jetstream-names';
import { namespacedName } from '../../libs/contracts/src/namespace';
import { componentOf, type Manifest, releaseNamespace, render } from './support/helm';
import { deployments, ofKind } from './support/kubernetes';
import { exportedMetricNames, externalMetrics, metricModules } from './support/metrics';
import { fromRoot, repoRoot, services } from './support/paths';
import { alertValueOf, selectorsOf } from './support/promql';

interface Rule {
  alert: string;
  expr: string;
  for?: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
}
type PrometheusRule = Manifest & { spec: { groups: { name: string; rules: Rule[] }[] } };
type ServiceMonitor = Manifest & {
  spec: {
    selector: { matchLabels: Record<string, string> };
    endpoints: { port: string; path: string; relabelings: { targetLabel: string; replacement: string }[] }[];
  };
};

const enabled = ['metrics.serviceMonitor.enabled=true', 'metrics.prometheusRule.enabled=true'];
const rulesOf = (manifests: Manifest[]) =>
  (ofKind(manifests, 'PrometheusRule') as PrometheusRule[]).flatMap((r) =>
    r.spec.groups.flatMap((g) => g.rules),
  );

/** Source files (not tests) under a folder that construct a prom-client metric. */
function metricDefiningFiles(dir: string): string[] {
  return readdirSync(path.join(repoRoot, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !/\.(spec|int-spec|d)\.ts$/.test(e.name))
    .map((e) => path.relative(repoRoot, path.join(e.parentPath, e.name)))
    .filter((file) => /new (Counter|Gauge|Histogram|Summary)\(/.test(readFileSync(fromRoot(file), 'utf8')));
}

describe('metrics and alerts of the chart', () => {
  let manifests: Manifest[];
  let rules: Rule[];
  let exported: Set<string>;
  beforeAll(async () => {
    manifests = render([], enabled);
    rules = rulesOf(manifests);
    exported = await exportedMetricNames();
  });

  it('renders no ServiceMonitor, PrometheusRule or metrics Service unless asked', () => {
    const kinds = render().map((m) => `${m.kind} ${componentOf(m)}`);
    expect(kinds.filter((k) => /ServiceMonitor|PrometheusRule|gateway-metrics/.test(k))).toEqual([]);
  });

  it('scrapes /metrics of every component, the gateway on its metrics port only, each under the job the rules name', () => {
    const monitors = ofKind(manifests, 'ServiceMonitor') as ServiceMonitor[];
    expect(monitors.map(componentOf).sort()).toEqual([...services].sort());
    const servicesByComponent = Object.fromEntries(
      ofKind(manifests, 'Service').map((s) => [
        componentOf(s),
        s as Manifest & { spec: { ports: { name: string }[] } },
      ]),
    );
    for (const monitor of monitors) {
      const component = componentOf(monitor);
      const [endpoint] = monitor.spec.endpoints;
      const target = servicesByComponent[monitor.spec.selector.matchLabels['app.kubernetes.io/component']];
      expect({ component, path: endpoint.path, ports: target.spec.ports.map((p) => p.name) }).toEqual({
        component,
        path: '/metrics',
        ports: [endpoint.port],
      });
      expect(endpoint.port).toBe(component === 'gateway' ? 'metrics' : 'http');
      const deployment = deployments(manifests).find((d) => componentOf(d) === component)!;
      expect(endpoint.relabelings).toContainEqual(
        expect.objectContaining({ targetLabel: 'job', replacement: deployment.metadata.name }),
      );
    }
    // The gateway's public Service never carries the metrics port.
    expect(servicesByComponent.gateway.spec.ports.map((p) => p.name)).toEqual(['http']);
  });

  it('gathers the exported metric names from every module that defines metrics', () => {
    const defining = ['libs', 'services'].flatMap((dir) => metricDefiningFiles(dir)).sort();
    expect(defining).toEqual(Object.keys(metricModules).sort());
    expect(exported).toContain('cm_monitor_sweep_duration_seconds_bucket');
    expect(exported).toContain('cm_jetstream_consumer_pending');
    expect(exported).toContain('cm_jetstream_consumer_oldest_unacked_age_seconds');
    expect(exported).toContain('cm_inventory_outbox_oldest_age_seconds');
  });

  it('reads metric names out of PromQL, not functions, keywords, labels or strings, and refuses what it cannot read', () => {
    expect(
      selectorsOf(
        'sum by (job, le) (rate(cm_a_bucket{route!~"/api/(x|y)",status=~"5.."}[5m] offset 1m)) > bool 3' +
          ' and on () absent(up{job="time"}) unless ignoring (pod) max_over_time(cm_b[10m:1m])' +
          ' or label_replace(cm_c, "dst", "rate", "src", "(.*)") or vector(0) * time()',
      ),
    ).toEqual({
      metrics: ['cm_a_bucket', 'up', 'cm_b', 'cm_c'],
      matchers: [
        { label: 'route', op: '!~', value: '/api/(x|y)' },
        { label: 'status', op: '=~', value: '5..' },
        { label: 'job', op: '=', value: 'time' },
      ],
      problems: [],
    });
    expect(selectorsOf('{__name__=~"cm_.*"}').problems).toHaveLength(2);
    expect(selectorsOf('rate(cm_a[5m]').problems).toEqual([expect.stringMatching(/^syntax error/)]);
  });

  it('names in its rules only metrics the services export, or the external ones listed', () => {
    const known = new Set([...exported, ...externalMetrics]);
    const unknown = (expr: string) => selectorsOf(expr).metrics.filter((name) => !known.has(name));
    // The check itself: a rule on a metric nobody exports would fail it.
    expect(unknown('rate(cm_monitor_sweeps_done_total[5m]) > 0')).toEqual(['cm_monitor_sweeps_done_total']);

    expect(rules.length).toBeGreaterThanOrEqual(16);
    for (const { alert, expr } of rules) {
      expect({ alert, problems: selectorsOf(expr).problems, unknown: unknown(expr) }).toEqual({
        alert,
        problems: [],
        unknown: [],
      });
    }
  });

  it('selects the release namespace, the jobs of its ServiceMonitors, the Deployments and the status consumer', () => {
    const jobs = deployments(manifests).map((d) => d.metadata.name);
    const matches = (op: string, pattern: string, value: string) =>
      op === '=' ? value === pattern : op === '=~' && new RegExp(`^(?:${pattern})$`).test(value);
    for (const { alert, expr } of rules) {
      const { matchers } = selectorsOf(expr);
      for (const { label, op, value } of matchers) {
        const where = { alert, label, value };
        if (label === 'namespace')
          expect({ ...where, op }).toEqual({ ...where, op: '=', value: releaseNamespace });
        if (label === 'job' || label === 'deployment') {
          const selected = jobs.filter((job) => matches(op, value, job));
          expect({ ...where, selects: selected.length > 0 }).toEqual({ ...where, selects: true });
        }
        if (label === 'stream') expect(value).toBe(namespacedName('cm', streams.status.name));
        if (label === 'consumer') expect(value).toBe(durableConsumers.inventoryStatus);
      }
      expect({ alert, namespaced: matchers.some((m) => m.label === 'namespace') }).toEqual({
        alert,
        namespaced: true,
      });
    }
  });

  it('alerts on each condition the operations guide explains, with a severity and a description', () => {
    expect(rules.map((r) => r.alert).sort()).toEqual(
      [
        'CmEquipmentOutboxStuck',
        'CmGatewayErrors',
        'CmLiveEventsHeldBack',
        'CmMetricsTargetDown',
        'CmMonitorMembersMissing',
        'CmMonitorMemoryNearLimit',
        'CmMonitorNoLeader',
        'CmMonitoringOff',
        'CmMonitorTwoLeaders',
        'CmNotificationsFailing',
        'CmNotificationsGivenUp',
        'CmReadinessFlapping',
        'CmReplicaMissing',
        'CmStatusConsumerLagGrowing',
        'CmStatusLagOld',
        'CmSweepIncomplete',
        'CmSweepOverran',
        'CmSweepsMissing',
      ].sort(),
    );
    const guide = readFileSync(fromRoot('docs/operations.md'), 'utf8');
    for (const rule of rules) {
      expect(rule.labels.severity).toMatch(/^(warning|critical)$/);
      expect(rule.annotations.summary).toBeTruthy();
      expect(rule.annotations.description).toContain('docs/operations.md');
      expect({ alert: rule.alert, documented: guide.includes(`**${rule.alert}**`) }).toEqual({
        alert: rule.alert,
        documented: true,
      });
    }
  });

  it('alerts when monitoring has been stopped for 30 minutes, however it came to be stopped', () => {
    const off = rules.find((r) => r.alert === 'CmMonitoringOff')!;
    expect({ for: off.for, metrics: selectorsOf(off.expr).metrics }).toEqual({
      for: '30m',
      metrics: ['cm_monitor_running'],
    });
    expect(off.expr).toMatch(/\) == 0$/);
  });

  it('finds the value an alert carries: the filtered side of a comparison, the left of and/unless', () => {
    expect(alertValueOf('(time() - max(cm_a) > 2 * max(cm_b)) and on () max(cm_r) == 1')).toBe(
      'time() - max(cm_a)',
    );
    expect(alertValueOf('max(cm_r) == 1 and on () (time() - max(cm_a) > 60)')).toBe('max(cm_r)');
    expect(alertValueOf('3 < sum(cm_a) unless cm_b')).toBe('sum(cm_a)');
    expect(alertValueOf('sum(cm_a) > bool 3')).toBe('sum(cm_a) > bool 3');
    expect(alertValueOf('sum(rate(cm_a[5m])) / sum(rate(cm_b[5m]))')).toBe(
      'sum(rate(cm_a[5m])) / sum(rate(cm_b[5m]))',
    );
  });

  it('says how long sweeps have been missing: the age of the last one, in the summary and the description', () => {
    const missing = rules.find((r) => r.alert === 'CmSweepsMissing')!;
    expect(alertValueOf(missing.expr)).toMatch(/^time\(\) - max\(cm_monitor_last_sweep_timestamp_seconds\{/);
    expect(missing.annotations.summary).toContain('{{ $value | humanizeDuration }}');
    expect(missing.annotations.description).toContain('{{ $value | humanizeDuration }}');
  });

  it('shows as a duration only a value that is one: an age in seconds', () => {
    const durations = rules.filter((r) =>
      Object.values(r.annotations).some((text) => text.includes('$value | humanizeDuration')),
    );
    expect(durations.map((r) => r.alert).sort()).toEqual([
      'CmEquipmentOutboxStuck',
      'CmStatusLagOld',
      'CmSweepsMissing',
    ]);
    for (const { alert, expr } of durations) {
      const value = alertValueOf(expr);
      expect({ alert, value, age: /^time\(\) - |_seconds\{/.test(value) }).toEqual({
        alert,
        value,
        age: true,
      });
    }
  });

  it('takes its thresholds, labels and scrape settings from the values', () => {
    // ci/inline-credentials-values.yaml gives the 5xx and memory ratios (a fraction `--set` would pass as a string).
    const given = render(
      ['ci/inline-credentials-values.yaml'],
      [
        'metrics.prometheusRule.thresholds.statusLag=123',
        'metrics.prometheusRule.thresholds.readinessChanges=9',
        'metrics.prometheusRule.thresholds.statusAgeSeconds=600',
        'metrics.prometheusRule.thresholds.outboxAgeSeconds=900',
        'metrics.prometheusRule.thresholds.notificationFailures=7',
        'monitor.replicaCount=3',
        'monitor.resources.limits.memory=512Mi',
        'metrics.prometheusRule.labels.release=kps',
        'metrics.serviceMonitor.interval=20s',
      ],
    );
    const byName = Object.fromEntries(rulesOf(given).map((r) => [r.alert, r]));
    expect(byName.CmStatusConsumerLagGrowing.expr).toMatch(/\) > 123\s/);
    expect(byName.CmGatewayErrors.expr).toMatch(/> 0\.02$/);
    expect(byName.CmReadinessFlapping.expr).toMatch(/> 9$/);
    expect(byName.CmStatusLagOld.expr).toMatch(/> 600$/);
    expect(byName.CmEquipmentOutboxStuck.expr).toMatch(/> 900$/);
    expect(byName.CmNotificationsFailing.expr).toMatch(/> 7$/);
    // Members are compared with the replicas the chart runs, memory with the limit it sets.
    expect(byName.CmMonitorMembersMissing.expr).toMatch(/< 3$/);
    expect(byName.CmMonitorMemoryNearLimit.expr).toMatch(/> 0\.9 \* 536870912$/);
    expect(Object.values(byName).every((r) => r.labels.team === 'av')).toBe(true);
    expect(ofKind(given, 'PrometheusRule')[0].metadata.labels).toMatchObject({ release: 'kps' });
    for (const monitor of ofKind(given, 'ServiceMonitor') as ServiceMonitor[])
      expect(monitor.spec.endpoints[0]).toMatchObject({ interval: '20s' });
  });
});
