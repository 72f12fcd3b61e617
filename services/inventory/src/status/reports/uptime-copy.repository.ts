import { type Readable } from 'node:stream';
import { uptimeCsvHeader } from '@cm/contracts';
import { type ChunkSource, execute, queryRows } from '@cm/platform';
import { type PoolClient } from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { type DataSource, type QueryRunner } from 'typeorm';
import { CrlfLines } from './crlf-lines';

/**
 * The uptime CSV as PostgreSQL writes it: one COPY of the report's query (uptimeCsvCopySql), in a
 * read-only transaction on a connection of its own, its bytes forwarded as chunks are pulled. So the
 * report is one statement over one snapshot, which PostgreSQL may run in parallel (a cursor's plan
 * never is), with no round trip per rows, and nothing is parsed or formatted here. The COPY's stream
 * is paused while a chunk's worth of it waits unsent: the socket fills and PostgreSQL stops
 * writing, so a download that is not read stops the query a chunk ahead, and no more than two
 * chunks are held here. Cancelling interrupts the statement (pg_cancel_backend) and drops what
 * PostgreSQL still sends until it stops, then ends the transaction and gives the connection back.
 */
export class UptimeCsvCopy implements ChunkSource {
  private runner?: QueryRunner;
  private pid?: number;
  private copy?: Readable;
  /** Bytes read and not yet sent, the header first. */
  private pending: Buffer[] = [Buffer.from(uptimeCsvHeader)];
  private pendingBytes = this.pending[0].length;
  private readonly lines = new CrlfLines();
  /** The COPY has ended, every byte of it read. */
  private copied = false;
  private failure?: Error;
  /** What a `next()` waiting for bytes is woken by. */
  private wake?: () => void;
  /** The statements sent on the connection and not yet answered, the COPY until it ends. */
  private readonly running = new Set<Promise<unknown>>();
  private cancelled = false;
  private closed = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly sql: string,
    /** A chunk is this many bytes, the last one fewer. */
    private readonly chunkBytes: number,
  ) {}

  async start(): Promise<void> {
    const runner = this.dataSource.createQueryRunner();
    this.runner = runner;
    const client = (await this.run(() => runner.connect())) as PoolClient;
    const [{ pid }] = await this.run(() =>
      queryRows<{ pid: number }>(runner, 'SELECT pg_backend_pid() AS pid'),
    );
    this.pid = pid;
    await this.run(() => execute(runner, 'BEGIN READ ONLY'));
    // Over every device the query's cost estimate crosses the JIT thresholds, and compiling it took
    // longer than running it (docs/benchmarks.md, "Uptime with maintenance windows").
    await this.run(() => execute(runner, 'SET LOCAL jit = off'));
    // The COPY lasts as long as the download: the pulls' timeouts bound it, not a statement's.
    await this.run(() => execute(runner, 'SET LOCAL statement_timeout = 0'));
    if (this.cancelled) throw new Error('The report was cancelled');
    // A stream of bytes, not rows: what queryRows and execute cannot answer.
    // eslint-disable-next-line no-restricted-syntax
    const copy = client.query(copyTo(this.sql));
    this.copy = copy;
    const copying = new Promise<void>((resolve) => {
      copy.on('data', (bytes: Buffer) => this.take(bytes));
      copy.on('end', () => {
        this.copied = true;
        resolve();
        this.wake?.();
      });
      copy.on('error', (error: Error) => {
        this.failure = error;
        resolve();
        this.wake?.();
      });
    });
    this.running.add(copying);
    void copying.then(() => this.running.delete(copying));
  }

  async next(): Promise<{ text: Uint8Array; last: boolean }> {
    while (this.pendingBytes < this.chunkBytes && !this.copied && !this.failure) {
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
    this.wake = undefined;
    if (this.failure) throw this.failure;
    const text = this.takeChunk();
    const last = this.copied && this.pendingBytes === 0;
    if (last) await this.close();
    // Read the next chunk while this one travels and is written out: PostgreSQL keeps working as
    // long as the download keeps up, and stops a chunk ahead when it does not.
    else if (this.pendingBytes < this.chunkBytes) this.copy?.resume();
    return { text, last };
  }

  async cancel(): Promise<void> {
    if (this.closed) return;
    this.cancelled = true;
    const running = [...this.running];
    if (running.length > 0 && this.pid !== undefined) {
      await queryRows(this.dataSource, 'SELECT pg_cancel_backend($1)', [this.pid]).catch(() => undefined);
    }
    // A COPY blocked on a full socket sees the cancel only once its write is through: read on.
    this.pending = [];
    this.pendingBytes = 0;
    this.copy?.resume();
    await Promise.allSettled(running);
    await this.close();
  }

  private take(bytes: Buffer): void {
    if (this.cancelled) return;
    const converted = this.lines.convert(bytes);
    this.pending.push(converted);
    this.pendingBytes += converted.length;
    if (this.pendingBytes >= this.chunkBytes) this.copy?.pause();
    this.wake?.();
  }

  /** The first `chunkBytes` of what waits, or all of it when that is less. */
  private takeChunk(): Buffer {
    const all = this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending);
    const size = Math.min(this.chunkBytes, all.length);
    const rest = all.subarray(size);
    this.pending = rest.length > 0 ? [rest] : [];
    this.pendingBytes = rest.length;
    return all.subarray(0, size);
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

  /** Ends the transaction and gives the connection back. */
  private async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const runner = this.runner;
    if (!runner) return;
    await execute(runner, 'ROLLBACK').catch(() => undefined);
    await runner.release().catch(() => undefined);
  }
}
