import { type ServerResponse } from 'node:http';
import { Controller, Get, Res } from '@nestjs/common';
import { MetricsService } from './metrics.service';

/** Prometheus text on the process's HTTP port, beside the probes. */
@Controller()
export class MetricsHttpController {
  constructor(private readonly metrics: MetricsService) {}

  @Get('metrics')
  scrape(@Res() res: ServerResponse): Promise<void> {
    return this.metrics.respond(res);
  }
}
