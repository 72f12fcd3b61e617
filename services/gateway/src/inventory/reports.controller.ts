import { apiRoutes, type UptimeReport } from '@cm/contracts';
import { Controller } from '@nestjs/common';
import { ApiRoute } from '../http/api-route.decorator';
import { UptimeReportService } from './uptime-report.service';

@Controller()
export class ReportsController {
  constructor(private readonly reports: UptimeReportService) {}

  @ApiRoute(apiRoutes.uptimeReport)
  uptime(): Promise<UptimeReport> {
    return this.reports.build();
  }
}
