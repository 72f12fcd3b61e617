import { randomUUID } from 'node:crypto';
import {
  messages,
  REPORT_PREVIEW_ROWS,
  REPORT_WINDOW_HOURS,
  type ReportPage,
  type UptimeReport,
} from '@cm/contracts';
import { CONFIG, readChunks, RpcClient } from '@cm/platform';
import { Inject, Injectable } from '@nestjs/common';
import { type Config } from '../config';

/**
 * The uptime report from inventory: the Reports screen's counts with the first rows (one page),
 * and the whole report as CSV, one COPY of its query in inventory, pulled a chunk at a time
 * (one NATS reply is limited to 1 MB, a campus's equipment is not; docs/architecture.md, "The
 * uptime CSV").
 */
@Injectable()
export class UptimeReportService {
  constructor(
    private readonly rpc: RpcClient,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

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
   * The CSV's bytes as inventory reads them, header first. The report is opened and its first
   * chunk read before anything is written, so a failure to reach inventory or to start the query
   * is still an error answer rather than a cut file. `signal` (the download stopped) cancels it,
   * the query in inventory with it, at any point; each chunk must come within the request timeout.
   */
  async csv(signal: AbortSignal): Promise<AsyncIterable<Uint8Array>> {
    const streamId = randomUUID();
    const def = messages.inventory.reportChunk;
    // Until the chunks are read, a stopped download cancels the report by its id alone.
    const cancel = () => void this.rpc.cancelChunks(def, streamId).catch(() => undefined);
    signal.addEventListener('abort', cancel, { once: true });
    let chunks: AsyncGenerator<Uint8Array>;
    let first: IteratorResult<Uint8Array>;
    try {
      await this.rpc.send(messages.inventory.openReport, { streamId, asOf: new Date().toISOString() });
      chunks = readChunks(this.rpc, def, streamId, {
        timeoutMs: this.config.NATS_REQUEST_TIMEOUT_MS,
        signal,
      });
      first = await chunks.next();
    } catch (error) {
      cancel();
      throw error;
    } finally {
      signal.removeEventListener('abort', cancel);
    }
    return (async function* () {
      if (!first.done) yield first.value;
      yield* chunks;
    })();
  }

  private page(after: string | undefined, asOf: string, limit: number): Promise<ReportPage> {
    return this.rpc.send(messages.inventory.report, { after, asOf, limit });
  }
}
