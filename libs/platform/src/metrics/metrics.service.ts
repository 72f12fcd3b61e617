import { Injectable, Logger } from '@nestjs/common';
import { platformMetrics } from './platform-metrics';
import { type Registry } from './registry';

export type MetricsCollector = () => Promise<void> | void;

const COLLECT_TIMEOUT_MS = 2000;

/**
 * What `/metrics` renders: the process's platform metrics plus the registries features add, after
 * running the collectors that read values only worth reading at scrape time (consumer lag).
 */
@Injectable()
export class MetricsService {
  private readonly logger = new Logger(MetricsService.name);
  private readonly registries: Registry[] = [platformMetrics.registry];
  private readonly collectors: MetricsCollector[] = [];

  addRegistry(registry: Registry): void {
    if (!this.registries.includes(registry)) this.registries.push(registry);
  }

  addCollector(collector: MetricsCollector): void {
    this.collectors.push(collector);
  }

  async render(): Promise<string> {
    await Promise.all(this.collectors.map((collect) => this.collect(collect)));
    return this.registries.map((r) => r.render()).join('');
  }

  // A slow or failing collector (NATS down) leaves its gauges as last read: a scrape still answers.
  private async collect(collect: MetricsCollector): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        collect(),
        new Promise((resolve) => (timer = setTimeout(resolve, COLLECT_TIMEOUT_MS))),
      ]);
    } catch (error) {
      this.logger.warn(`A metrics collector failed: ${String(error)}`);
    } finally {
      clearTimeout(timer);
    }
  }
}
