/**
 * A small Prometheus registry (text exposition format 0.0.4): counters, gauges and histograms
 * with optional labels. Enough for one process's handful of metrics without a dependency.
 */
type Labels = Record<string, string>;

const labelKey = (labels: Labels = {}) =>
  Object.keys(labels)
    .sort()
    .map((k) => `${k}="${labels[k].replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`)
    .join(',');
const withLabels = (name: string, key: string) => (key ? `${name}{${key}}` : name);
const num = (n: number) => (Number.isFinite(n) ? String(n) : n > 0 ? '+Inf' : n < 0 ? '-Inf' : 'NaN');

interface Metric {
  render(): string[];
}

abstract class Series implements Metric {
  protected readonly values = new Map<string, number>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly type: 'counter' | 'gauge',
  ) {}

  get(labels?: Labels): number {
    return this.values.get(labelKey(labels)) ?? 0;
  }

  render(): string[] {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} ${this.type}`];
    for (const [key, value] of this.values) lines.push(`${withLabels(this.name, key)} ${num(value)}`);
    return lines;
  }
}

export class Counter extends Series {
  constructor(name: string, help: string) {
    super(name, help, 'counter');
  }

  inc(by = 1, labels?: Labels): void {
    const key = labelKey(labels);
    this.values.set(key, (this.values.get(key) ?? 0) + by);
  }
}

export class Gauge extends Series {
  constructor(name: string, help: string) {
    super(name, help, 'gauge');
  }

  set(value: number, labels?: Labels): void {
    this.values.set(labelKey(labels), value);
  }

  add(delta: number, labels?: Labels): void {
    const key = labelKey(labels);
    this.values.set(key, (this.values.get(key) ?? 0) + delta);
  }
}

export class Histogram implements Metric {
  private readonly series = new Map<string, { counts: number[]; sum: number; count: number }>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly buckets: readonly number[],
  ) {}

  observe(value: number, labels?: Labels): void {
    const key = labelKey(labels);
    let s = this.series.get(key);
    if (!s) this.series.set(key, (s = { counts: this.buckets.map(() => 0), sum: 0, count: 0 }));
    this.buckets.forEach((bound, i) => {
      if (value <= bound) s.counts[i]++;
    });
    s.sum += value;
    s.count++;
  }

  render(): string[] {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} histogram`];
    for (const [key, s] of this.series) {
      const sep = key ? `${key},` : '';
      this.buckets.forEach((bound, i) =>
        lines.push(`${this.name}_bucket{${sep}le="${bound}"} ${s.counts[i]}`),
      );
      lines.push(`${this.name}_bucket{${sep}le="+Inf"} ${s.count}`);
      lines.push(`${withLabels(`${this.name}_sum`, key)} ${num(s.sum)}`);
      lines.push(`${withLabels(`${this.name}_count`, key)} ${s.count}`);
    }
    return lines;
  }
}

export class Registry {
  private readonly metrics: Metric[] = [];

  counter(name: string, help: string): Counter {
    return this.add(new Counter(name, help));
  }

  gauge(name: string, help: string): Gauge {
    return this.add(new Gauge(name, help));
  }

  histogram(name: string, help: string, buckets: readonly number[]): Histogram {
    return this.add(new Histogram(name, help, buckets));
  }

  render(): string {
    return `${this.metrics.flatMap((m) => m.render()).join('\n')}\n`;
  }

  private add<M extends Metric>(metric: M): M {
    this.metrics.push(metric);
    return metric;
  }
}
