import { apiRoutes, type HealthAnswer } from '@cm/contracts';
import { platformMetrics } from '@cm/platform';
import { Controller, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { type SignedInRequest } from '../identity/current-user';
import { ApiRoute } from '../http/api-route.decorator';
import { healthFor, ReadinessService } from './readiness.service';

@Controller()
export class HealthController {
  constructor(private readonly readiness: ReadinessService) {}

  @ApiRoute(apiRoutes.healthz)
  live() {
    return { status: 'up' };
  }

  @ApiRoute(apiRoutes.readyz)
  async ready(@Req() req: SignedInRequest, @Res({ passthrough: true }) res: Response): Promise<HealthAnswer> {
    const report = await this.readiness.ready();
    platformMetrics.observeReadiness(report.status === 'down' ? 'down' : 'up');
    res.setHeader('Cache-Control', 'no-store');
    if (report.status === 'down') res.status(503);
    return healthFor(report, req.user);
  }

  @ApiRoute(apiRoutes.systemStatus)
  async system(
    @Req() req: SignedInRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<HealthAnswer> {
    const report = await this.readiness.system();
    res.setHeader('Cache-Control', 'no-store');
    if (report.status !== 'up') res.status(503);
    return healthFor(report, req.user);
  }
}
