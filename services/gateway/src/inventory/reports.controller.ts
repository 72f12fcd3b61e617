import { apiRoutes, type UptimeReport, uptimeCsvFileName } from '@cm/contracts';
import { Controller, Res } from '@nestjs/common';
import { type Response } from 'express';
import { ApiRoute } from '../http/api-route.decorator';
import { streamCsv } from './csv-response';
import { UptimeReportService } from './uptime-report.service';

@Controller()
export class ReportsController {
  constructor(private readonly reports: UptimeReportService) {}

  @ApiRoute(apiRoutes.uptimeReport)
  uptime(): Promise<UptimeReport> {
    return this.reports.summary();
  }

  /**
   * Streamed as inventory reads it: the server never holds a campus's report at once, and a
   * download that stops (the client went away) stops the query.
   */
  @ApiRoute(apiRoutes.uptimeReportCsv)
  async uptimeCsv(@Res() res: Response): Promise<void> {
    const stopped = new AbortController();
    res.on('close', () => stopped.abort(new Error('The download stopped')));
    await streamCsv(res, uptimeCsvFileName(new Date()), await this.reports.csv(stopped.signal));
  }
}
