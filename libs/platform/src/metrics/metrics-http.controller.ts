import { Controller, Get, Res } from '@nestjs/common';
import type { Response } from 'express';
import { MetricsService } from './metrics.service';

/** Prometheus text on the process's HTTP port, beside the probes. */
@Controller()
export class MetricsHttpController {
  constructor(private readonly metrics: MetricsService) {}

  @Get('metrics')
  scrape(@Res({ passthrough: true }) res: Response): Promise<string> {
    res.type(this.metrics.contentType);
    return this.metrics.render();
  }
}
