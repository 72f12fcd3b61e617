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

/** A page of at most 500 rows stays well under NATS's 1 MB message limit, whatever the names. */
const PAGE_SIZE = 500;
/** Far beyond any campus; stops a cursor that never ends from looping for ever. */
const MAX_PAGES = 10_000;

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

  /**
   * The CSV, header first. The first page is asked before anything is written, so a failure to
   * reach inventory is still an error answer rather than a cut file.
   */
  async csv(): Promise<AsyncIterable<string>> {
    const asOf = new Date().toISOString();
    const first = await this.page(undefined, asOf, PAGE_SIZE);
    const next = (after: string) => this.page(after, asOf, PAGE_SIZE);
    return (async function* lines() {
      let page = first;
      yield uptimeCsvHeader + page.items.map(uptimeCsvLine).join('');
      for (let pages = 1; page.nextCursor && pages < MAX_PAGES; pages++) {
        page = await next(page.nextCursor);
        yield page.items.map(uptimeCsvLine).join('');
      }
    })();
  }

  private page(after: string | undefined, asOf: string, limit: number): Promise<ReportPage> {
    return this.rpc.send(messages.inventory.report, { after, asOf, limit });
  }
}
