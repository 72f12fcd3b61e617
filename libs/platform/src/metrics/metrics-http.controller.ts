import { Controller, Get, Header } from '@nestjs/common';
import { MetricsService } from './metrics.service';

export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** Prometheus text on the process's HTTP port, beside the probes. */
@Controller()
export class MetricsHttpController {
  constructor(private readonly metrics: MetricsService) {}

  @Get('metrics')
  @Header('Content-Type', PROMETHEUS_CONTENT_TYPE)
  scrape(): Promise<string> {
    return this.metrics.render();
  }
}
