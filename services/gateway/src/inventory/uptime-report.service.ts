import { patterns, REPORT_WINDOW_HOURS, type ReportPage, type UptimeReport } from '@cm/contracts';
import { RpcClient } from '@cm/platform';
import { Injectable } from '@nestjs/common';

/** A page of at most 500 rows stays well under NATS's 1 MB message limit, whatever the names. */
const PAGE_SIZE = 500;
/** Far beyond any campus; stops a cursor that never ends from looping for ever. */
const MAX_PAGES = 10_000;

/**
 * Assembles the uptime report from inventory's pages: one NATS reply is limited to 1 MB, a
 * campus's equipment is not. Every page is computed for the same instant.
 */
@Injectable()
export class UptimeReportService {
  constructor(private readonly rpc: RpcClient) {}

  async build(): Promise<UptimeReport> {
    const asOf = new Date().toISOString();
    const equipment: UptimeReport['equipment'] = [];
    let summary: ReportPage['summary'] = null;
    let after: string | undefined;
    for (let pages = 0; pages < MAX_PAGES; pages++) {
      const page = await this.rpc.send<ReportPage>(patterns.inventory.report, {
        after,
        asOf,
        limit: PAGE_SIZE,
      });
      summary ??= page.summary;
      equipment.push(...page.items);
      if (!page.nextCursor) break;
      after = page.nextCursor;
    }
    if (!summary) throw new Error('The inventory service answered the first report page without its summary');
    return { ...summary, windowHours: REPORT_WINDOW_HOURS, equipment };
  }
}
