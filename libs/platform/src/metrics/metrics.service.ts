import { type ServerResponse } from 'node:http';
import { Injectable, Logger } from '@nestjs/common';
import { Registry } from 'prom-client';
import { waitAtMost } from '../wait-at-most';
import { platformMetrics } from './platform-metrics';

export type MetricsCollector = () => Promise<void> | void;

const COLLECT_TIMEOUT_MS = 2000;

/**
 * What `/metrics` renders: the process's platform metrics plus the registries features add, after
 * running the collectors that read values only worth reading at scrape time (consumer lag).
 * A feature's registry belongs to its app, not the process: tests host several replicas of a
 * service in one process, and each must show its own.
 */
@Injectable()
export class MetricsService {
  private readonly logger = new Logger(MetricsService.name);
  private readonly registries: Registry[] = [platformMetrics.registry];
  private readonly collectors: MetricsCollector[] = [];

  readonly contentType = platformMetrics.registry.contentType;

  addRegistry(registry: Registry): void {
    if (!this.registries.includes(registry)) this.registries.push(registry);
  }

  addCollector(collector: MetricsCollector): void {
    this.collectors.push(collector);
  }

  /** Answers a scrape. Express's send() would rewrite the content type: it goes out as prom-client's. */
  async respond(res: ServerResponse): Promise<void> {
    const text = await this.render();
    res.setHeader('Content-Type', this.contentType).end(text);
  }

  async render(): Promise<string> {
    await Promise.all(this.collectors.map((collect) => this.collect(collect)));
    // Merging refuses a name registered twice, which concatenated texts would show twice.
    return Registry.merge(this.registries).metrics();
  }

  // A slow or failing collector (NATS down) leaves its gauges as last read: a scrape still answers.
  private async collect(collect: MetricsCollector): Promise<void> {
    try {
      await waitAtMost(COLLECT_TIMEOUT_MS, Promise.resolve().then(collect));
    } catch (error) {
      this.logger.warn(`A metrics collector failed: ${String(error)}`);
    }
  }
}
