import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Logger } from '@nestjs/common';
import { type Response } from 'express';

const logger = new Logger('CsvResponse');

/**
 * Sends CSV text as a download, a chunk at a time as `lines` yields it, and asks for the next
 * chunk only once the client has taken the one before (a byte stream: at most about one chunk is
 * read ahead, where an object stream would read 16). A failure part-way cuts the connection
 * (no final chunk), so the client sees a broken download, never a short file that looks whole.
 */
export async function streamCsv(
  res: Response,
  fileName: string,
  lines: AsyncIterable<string | Uint8Array>,
): Promise<void> {
  res.setHeader('Content-Type', 'text/csv; charset=utf-8');
  res.setHeader('Content-Disposition', `attachment; filename="${fileName}"`);
  await pipeline(Readable.from(lines, { objectMode: false }), res).catch((error: unknown) => {
    // Headers are out: all that is left is to cut the download, which the browser reports.
    logger.warn(`The CSV ${fileName} stopped part-way: ${String(error)}`);
    res.destroy();
  });
}

/** Far beyond any campus; stops a cursor that never ends from looping for ever. */
const MAX_PAGES = 10_000;

/**
 * A CSV read from inventory a page at a time (one NATS reply is limited to 1 MB, a campus is not),
 * header first. The first page is asked before anything is written, so a failure to reach
 * inventory is still an error answer rather than a cut file.
 */
export async function pagedCsv<Cursor, Item>(
  header: string,
  line: (item: Item) => string,
  page: (after: Cursor | undefined) => Promise<{ items: Item[]; nextCursor: Cursor | null }>,
): Promise<AsyncIterable<string>> {
  const first = await page(undefined);
  return (async function* lines() {
    let current = first;
    yield header + current.items.map(line).join('');
    for (let pages = 1; current.nextCursor && pages < MAX_PAGES; pages++) {
      current = await page(current.nextCursor);
      yield current.items.map(line).join('');
    }
  })();
}
