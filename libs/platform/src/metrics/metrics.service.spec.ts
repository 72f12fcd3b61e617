import { MetricsService } from './metrics.service';
import { Registry } from './registry';

describe(MetricsService.name, () => {
  it('renders the platform metrics and every added registry, after running the collectors', async () => {
    const sut = new MetricsService();
    const feature = new Registry();
    const targets = feature.gauge('feature_targets', 'Targets.');
    sut.addRegistry(feature);
    sut.addCollector(() => targets.set(7));

    const text = await sut.render();

    expect(text).toContain('# TYPE cm_nats_request_duration_seconds histogram');
    expect(text).toContain('feature_targets 7\n');
  });

  it('still answers when a collector fails, with the value it read last', async () => {
    const sut = new MetricsService();
    const feature = new Registry();
    const lag = feature.gauge('feature_lag', 'Lag.');
    sut.addRegistry(feature);
    let fail = false;
    sut.addCollector(async () => {
      if (fail) throw new Error('NATS is away');
      lag.set(3);
    });
    await sut.render();
    fail = true;

    expect(await sut.render()).toContain('feature_lag 3\n');
  });
});
