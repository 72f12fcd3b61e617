import { apiRoutes, type HealthReport } from '@cm/contracts';
import { Controller, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ApiRoute } from '../http/api-route.decorator';
import { ReadinessService } from './readiness.service';

@Controller()
export class HealthController {
  constructor(private readonly readiness: ReadinessService) {}

  @ApiRoute(apiRoutes.healthz)
  live() {
    return { status: 'up' };
  }

  @ApiRoute(apiRoutes.readyz)
  async ready(@Res({ passthrough: true }) res: Response): Promise<HealthReport> {
    const report = await this.readiness.report();
    res.setHeader('Cache-Control', 'no-store');
    if (report.status !== 'up') res.status(503);
    return report;
  }
}
