import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { apiRoutes, type UptimeReport, uptimeCsvFileName } from '@cm/contracts';
import { Controller, Logger, Res } from '@nestjs/common';
import { type Response } from 'express';
import { ApiRoute } from '../http/api-route.decorator';
import { UptimeReportService } from './uptime-report.service';

@Controller()
export class ReportsController {
  private readonly logger = new Logger(ReportsController.name);

  constructor(private readonly reports: UptimeReportService) {}

  @ApiRoute(apiRoutes.uptimeReport)
  uptime(): Promise<UptimeReport> {
    return this.reports.summary();
  }

  /** Streamed as inventory's pages arrive: the server never holds a campus's report at once. */
  @ApiRoute(apiRoutes.uptimeReportCsv)
  async uptimeCsv(@Res() res: Response): Promise<void> {
    const lines = await this.reports.csv();
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="${uptimeCsvFileName(new Date())}"`);
    await pipeline(Readable.from(lines), res).catch((error: unknown) => {
      // Headers are out: all that is left is to cut the download, which the browser reports.
      this.logger.warn(`The uptime CSV stopped part-way: ${String(error)}`);
      res.destroy();
    });
  }
}
