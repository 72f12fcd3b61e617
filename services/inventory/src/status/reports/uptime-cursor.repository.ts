import { uptimeCsvHeader } from '@cm/contracts';
import { type ChunkSource, execute, queryRows } from '@cm/platform';
import { type DataSource, type QueryRunner } from 'typeorm';
import { type UptimeCsvSqlRow, uptimeCsvLineOf } from './uptime';

const CURSOR = 'uptime_report';

export interface ReportCursorOptions {
  /** Rows per FETCH. */
  fetchRows: number;
  /** A chunk ends once it holds this many characters (UTF-8: at most 3 bytes each). */
  chunkChars: number;
}

/**
 * The uptime CSV read through one server-side cursor: the report's query is declared once, in a
 * read-only transaction on a connection of its own, and FETCHed as chunks are pulled, one chunk
 * ahead of the puller at most. So the report is one query over one snapshot, its first rows go
 * out while PostgreSQL computes the rest, and no more than two chunks and a FETCH of it are ever held
 * here. Cancelling interrupts the statement under way (pg_cancel_backend) and ends the transaction.
 */
export class UptimeReportCursor implements ChunkSource {
  private runner?: QueryRunner;
  private pid?: number;
  /** CSV lines read and not yet sent, the header first. */
  private pending: string[] = [uptimeCsvHeader];
  private pendingChars = uptimeCsvHeader.length;
  private exhausted = false;
  /** Reading the next chunk ahead, if under way. */
  private filling?: Promise<void>;
  /** A FETCH sent ahead of the rows being needed. */
  private nextRows?: Promise<UptimeCsvSqlRow[]>;
  /** The statements sent on the connection and not yet answered. */
  private readonly running = new Set<Promise<unknown>>();
  private cancelled = false;
  private closed = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly sql: string,
    private readonly parameters: unknown[],
    private readonly options: ReportCursorOptions,
  ) {}

  async start(): Promise<void> {
    const runner = this.dataSource.createQueryRunner();
    this.runner = runner;
    const [{ pid }] = await this.run(() =>
      queryRows<{ pid: number }>(runner, 'SELECT pg_backend_pid() AS pid'),
    );
    this.pid = pid;
    await this.run(() => execute(runner, 'BEGIN READ ONLY'));
    // Over every device the query's cost estimate crosses the JIT thresholds, and compiling it took
    // longer than running it (docs/benchmarks.md, "Uptime with maintenance windows").
    await this.run(() => execute(runner, 'SET LOCAL jit = off'));
    await this.run(() =>
      execute(runner, `DECLARE ${CURSOR} NO SCROLL CURSOR FOR ${this.sql}`, this.parameters),
    );
  }

  async next(): Promise<{ text: string; last: boolean }> {
    await (this.filling ?? this.fill());
    this.filling = undefined;
    let count = 0;
    let chars = 0;
    while (count < this.pending.length && chars < this.options.chunkChars)
      chars += this.pending[count++].length;
    const text = this.pending.splice(0, count).join('');
    this.pendingChars -= chars;
    const last = this.exhausted && this.pending.length === 0;
    if (last) await this.close();
    else {
      // Read the next chunk while this one travels and is written out: PostgreSQL keeps working
      // as long as the download keeps up, and stops a chunk ahead when it does not.
      this.filling = this.fill();
      this.filling.catch(() => undefined);
    }
    return { text, last };
  }

  /**
   * FETCHes until a chunk's worth of lines waits, or the rows are all read. The next FETCH is
   * sent before the rows of one are formatted, so PostgreSQL reads on meanwhile.
   */
  private async fill(): Promise<void> {
    while (this.pendingChars < this.options.chunkChars && !this.exhausted) {
      const rows = await (this.nextRows ?? this.fetch());
      this.nextRows = undefined;
      if (rows.length === this.options.fetchRows) {
        this.nextRows = this.fetch();
        this.nextRows.catch(() => undefined);
      }
      this.take(rows);
    }
  }

  async cancel(): Promise<void> {
    if (this.closed) return;
    this.cancelled = true;
    const running = [...this.running];
    if (running.length > 0 && this.pid !== undefined) {
      await queryRows(this.dataSource, 'SELECT pg_cancel_backend($1)', [this.pid]).catch(() => undefined);
    }
    await Promise.allSettled(running);
    await this.close();
  }

  private fetch(): Promise<UptimeCsvSqlRow[]> {
    return this.run(() =>
      queryRows<UptimeCsvSqlRow>(this.runner!, `FETCH FORWARD ${this.options.fetchRows} FROM ${CURSOR}`),
    );
  }

  private take(rows: UptimeCsvSqlRow[]): void {
    if (rows.length < this.options.fetchRows) this.exhausted = true;
    for (const row of rows) {
      const line = uptimeCsvLineOf(row);
      this.pending.push(line);
      this.pendingChars += line.length;
    }
  }

  /** Runs one statement, none once cancelled: a cancel then waits for those already sent. */
  private async run<T>(statement: () => Promise<T>): Promise<T> {
    if (this.cancelled) throw new Error('The report was cancelled');
    const running = statement();
    this.running.add(running);
    try {
      return await running;
    } finally {
      this.running.delete(running);
    }
  }

  /** Ends the transaction (and with it the cursor) and gives the connection back. */
  private async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const runner = this.runner;
    if (!runner) return;
    await execute(runner, 'ROLLBACK').catch(() => undefined);
    await runner.release().catch(() => undefined);
  }
}
