import { REPORT_WINDOW_HOURS, type ReportPage, reportPageRequestSchema } from '@cm/contracts';
import { Injectable } from '@nestjs/common';
import { type z } from 'zod';
import { ReportRepository } from './report.repository';
import { uptimeOf } from './uptime';

const round = (value: number, decimals: number) => Math.round(value * 10 ** decimals) / 10 ** decimals;

@Injectable()
export class ReportsService {
  constructor(private readonly reports: ReportRepository) {}

  /** One page of the uptime report over the 720 hours before `asOf`; the summary comes with the first. */
  async page({ after, limit, asOf }: z.output<typeof reportPageRequestSchema>): Promise<ReportPage> {
    const to = asOf ? new Date(asOf) : new Date();
    const from = new Date(to.getTime() - REPORT_WINDOW_HOURS * 3_600_000);
    const [rows, counts] = await Promise.all([
      this.reports.uptimePage(after, limit, from, to),
      after ? null : this.reports.counts(),
    ]);
    const items = rows.map(uptimeOf);
    const summary = counts && {
      ...counts,
      overallUptimePercent:
        counts.totalEquipment > 0 ? round((counts.online / counts.totalEquipment) * 100, 1) : 0,
      generatedAt: to.toISOString(),
    };
    return {
      summary,
      items,
      nextCursor: rows.length === limit ? rows[rows.length - 1].equipmentId : null,
    };
  }
}
