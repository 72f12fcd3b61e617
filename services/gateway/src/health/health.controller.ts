import { apiRoutes, type HealthReport } from '@cm/contracts';
import { platformMetrics } from '@cm/platform';
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
    const report = await this.readiness.ready();
    platformMetrics.observeReadiness(report.status === 'down' ? 'down' : 'up');
    res.setHeader('Cache-Control', 'no-store');
    if (report.status === 'down') res.status(503);
    return report;
  }

  @ApiRoute(apiRoutes.systemStatus)
  async system(@Res({ passthrough: true }) res: Response): Promise<HealthReport> {
    const report = await this.readiness.system();
    res.setHeader('Cache-Control', 'no-store');
    if (report.status !== 'up') res.status(503);
    return report;
  }
}
