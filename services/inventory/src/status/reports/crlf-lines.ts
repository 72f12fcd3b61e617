const QUOTE = 0x22;
const LF = 0x0a;
const CR = Buffer.from('\r');

/**
 * COPY's CSV rows end in LF; the CSV's lines end in CRLF (RFC 4180, as csvLine writes them). This
 * puts a CR before each LF that ends a row, as the bytes come, in pieces cut anywhere: an LF inside
 * a quoted cell (after an odd number of quotes in the row) is the cell's own and stays as it is.
 */
export class CrlfLines {
  private quoted = false;

  convert(chunk: Buffer): Buffer {
    const parts: Buffer[] = [];
    let start = 0;
    let quote = chunk.indexOf(QUOTE);
    for (let lf = chunk.indexOf(LF); lf !== -1; lf = chunk.indexOf(LF, lf + 1)) {
      for (; quote !== -1 && quote < lf; quote = chunk.indexOf(QUOTE, quote + 1)) this.quoted = !this.quoted;
      if (this.quoted) continue;
      parts.push(chunk.subarray(start, lf), CR);
      start = lf;
    }
    for (; quote !== -1; quote = chunk.indexOf(QUOTE, quote + 1)) this.quoted = !this.quoted;
    if (parts.length === 0) return chunk;
    parts.push(chunk.subarray(start));
    return Buffer.concat(parts);
  }
}
