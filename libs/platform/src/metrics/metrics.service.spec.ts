import { createServer } from 'node:http';
import { type AddressInfo } from 'node:net';
import { Gauge, Registry } from 'prom-client';
import { MetricsService } from './metrics.service';
import { platformMetrics } from './platform-metrics';
import { sample } from '../testing/prometheus';

describe(MetricsService.name, () => {
  it('shows the platform metrics with their help, labels and cumulative buckets, in Prometheus text', async () => {
    const sut = new MetricsService();
    platformMetrics.natsRequestDuration.observe({ outcome: 'ok', pattern: 'spec.ping' }, 0.003);
    platformMetrics.natsRequestDuration.observe({ outcome: 'ok', pattern: 'spec.ping' }, 0.2);
    platformMetrics.httpRequests.inc({ method: 'GET', route: '/api/spec', status: '200' });

    const text = await sut.render();

    expect(text).toContain(
      '# HELP cm_nats_request_duration_seconds Time from sending a NATS request to its reply, by pattern and outcome (ok, or the error code).\n' +
        '# TYPE cm_nats_request_duration_seconds histogram\n',
    );
    const series = 'outcome="ok",pattern="spec.ping"';
    expect(sample(text, `cm_nats_request_duration_seconds_bucket{le="0.001",${series}}`)).toBe(0);
    expect(sample(text, `cm_nats_request_duration_seconds_bucket{le="0.005",${series}}`)).toBe(1);
    expect(sample(text, `cm_nats_request_duration_seconds_bucket{le="30",${series}}`)).toBe(2);
    expect(sample(text, `cm_nats_request_duration_seconds_bucket{le="+Inf",${series}}`)).toBe(2);
    expect(sample(text, `cm_nats_request_duration_seconds_count{${series}}`)).toBe(2);
    expect(sample(text, 'cm_http_requests_total{method="GET",route="/api/spec",status="200"}')).toBe(1);
    expect(text).toContain('# TYPE cm_jetstream_consumer_pending gauge\n');
  });

  it('shows Node’s runtime metrics under their standard names', async () => {
    const text = await new MetricsService().render();

    expect(text).toContain('# TYPE nodejs_eventloop_lag_seconds gauge\n');
    expect(sample(text, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(text).toMatch(/^nodejs_heap_size_used_bytes \d+/m);
    expect(text).toMatch(/^process_cpu_seconds_total \d/m);
  });

  it('shows each added registry after running the collectors', async () => {
    const sut = new MetricsService();
    const feature = new Registry();
    const targets = new Gauge({ name: 'feature_targets', help: 'Targets.', registers: [feature] });
    sut.addRegistry(feature);
    sut.addCollector(() => targets.set(7));

    const text = await sut.render();

    expect(text).toContain('# TYPE cm_nats_request_duration_seconds histogram');
    expect(sample(text, 'feature_targets')).toBe(7);
    // Another app in the process has its own registry and does not show this one's.
    expect(await new MetricsService().render()).not.toContain('feature_targets');
  });

  it('still answers when a collector fails, with the value it read last', async () => {
    const sut = new MetricsService();
    const feature = new Registry();
    const lag = new Gauge({
      name: 'feature_lag',
      help: 'Lag.',
      labelNames: ['stream'],
      registers: [feature],
    });
    sut.addRegistry(feature);
    let fail = false;
    sut.addCollector(async () => {
      if (fail) throw new Error('NATS is away');
      lag.set({ stream: 'S' }, 3);
    });
    await sut.render();
    fail = true;

    expect(sample(await sut.render(), 'feature_lag{stream="S"}')).toBe(3);
  });

  it('answers a scrape with prom-client’s content type, as it is', async () => {
    const sut = new MetricsService();
    const server = createServer((_req, res) => void sut.respond(res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`);

      expect(res.headers.get('content-type')).toBe(new Registry().contentType);
      expect(await res.text()).toContain('# TYPE cm_http_requests_total counter');
    } finally {
      server.close();
    }
  });
});
