import {
  messages,
  REPORT_PREVIEW_ROWS,
  REPORT_WINDOW_HOURS,
  type ReportPage,
  type UptimeReport,
  uptimeCsvHeader,
  uptimeCsvLine,
} from '@cm/contracts';
import { RpcClient } from '@cm/platform';
import { Injectable } from '@nestjs/common';
import { pagedCsv } from './csv-response';

/** A page of at most 500 rows stays well under NATS's 1 MB message limit, whatever the names. */
const PAGE_SIZE = 500;

/**
 * The uptime report from inventory's pages: the Reports screen's counts with the first rows,
 * and the whole report as CSV, streamed a page at a time (one NATS reply is limited to 1 MB, a
 * campus's equipment is not). Every page of one report is computed for the same instant.
 */
@Injectable()
export class UptimeReportService {
  constructor(private readonly rpc: RpcClient) {}

  async summary(): Promise<UptimeReport> {
    const page = await this.page(undefined, new Date().toISOString(), REPORT_PREVIEW_ROWS);
    if (!page.summary)
      throw new Error('The inventory service answered the first report page without its summary');
    return {
      ...page.summary,
      windowHours: REPORT_WINDOW_HOURS,
      equipment: page.items,
      truncated: page.nextCursor !== null,
    };
  }

  /** The CSV, streamed a page at a time, every page computed for the same instant. */
  csv(): Promise<AsyncIterable<string>> {
    const asOf = new Date().toISOString();
    return pagedCsv(uptimeCsvHeader, uptimeCsvLine, (after?: string) => this.page(after, asOf, PAGE_SIZE));
  }

  private page(after: string | undefined, asOf: string, limit: number): Promise<ReportPage> {
    return this.rpc.send(messages.inventory.report, { after, asOf, limit });
  }
}
