import { Registry } from './registry';

describe(Registry.name, () => {
  it('renders counters, gauges and cumulative histogram buckets in Prometheus text format', () => {
    const sut = new Registry();
    const pings = sut.counter('pings_total', 'Pings.');
    const targets = sut.gauge('targets', 'Targets.');
    const duration = sut.histogram('sweep_seconds', 'Sweeps.', [1, 5]);
    pings.inc(3, { result: 'answered' });
    pings.inc(1, { result: 'unanswered' });
    pings.inc(2, { result: 'answered' });
    targets.set(12);
    duration.observe(0.5);
    duration.observe(3);
    duration.observe(9);

    expect(sut.render()).toBe(
      [
        '# HELP pings_total Pings.',
        '# TYPE pings_total counter',
        'pings_total{result="answered"} 5',
        'pings_total{result="unanswered"} 1',
        '# HELP targets Targets.',
        '# TYPE targets gauge',
        'targets 12',
        '# HELP sweep_seconds Sweeps.',
        '# TYPE sweep_seconds histogram',
        'sweep_seconds_bucket{le="1"} 1',
        'sweep_seconds_bucket{le="5"} 2',
        'sweep_seconds_bucket{le="+Inf"} 3',
        'sweep_seconds_sum 12.5',
        'sweep_seconds_count 3',
        '',
      ].join('\n'),
    );
  });

  it('escapes label values', () => {
    const sut = new Registry();
    sut.counter('c', 'C.').inc(1, { reason: 'a "quoted"\\value' });
    expect(sut.render()).toContain('c{reason="a \\"quoted\\"\\\\value"} 1');
  });
});
