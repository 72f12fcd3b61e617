import { sample as sampleOf } from '@cm/platform/testing';
import { MonitorMetrics } from './monitor-metrics';

const sample = async (metrics: MonitorMetrics, series: string) =>
  sampleOf(await metrics.registry.metrics(), series);

describe(MonitorMetrics.name, () => {
  it('exports whether monitoring runs, its interval and when the last scheduled sweep was fired', async () => {
    const sut = new MonitorMetrics();

    sut.recordState({ isRunning: false, interval: 30_000 });
    expect(await sample(sut, 'cm_monitor_running')).toBe(0);
    expect(await sample(sut, 'cm_monitor_last_sweep_timestamp_seconds')).toBe(0);

    sut.recordState({ isRunning: true, interval: 60_000, lastSweepAt: Date.UTC(2026, 10, 24, 9, 0, 30) });
    expect(await sample(sut, 'cm_monitor_running')).toBe(1);
    expect(await sample(sut, 'cm_monitor_sweep_interval_seconds')).toBe(60);
    expect(await sample(sut, 'cm_monitor_last_sweep_timestamp_seconds')).toBe(
      Date.UTC(2026, 10, 24, 9, 0, 30) / 1000,
    );
  });
});
