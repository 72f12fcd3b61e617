/** A QRC answer larger than this is not a status: the probe gives up rather than buffer on. */
const MAX_FRAME_BYTES = 256 * 1024;

/**
 * QRC ends every JSON-RPC message with a NUL byte. TCP may deliver several messages in one
 * packet or one message over several, so bytes are kept until their NUL arrives.
 */
export class QrcFrames {
  private pending: Buffer = Buffer.alloc(0);

  /** The complete messages this chunk ends, in order. */
  push(chunk: Buffer): string[] {
    this.pending = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    const messages: string[] = [];
    let start = 0;
    for (let end = this.pending.indexOf(0, start); end !== -1; end = this.pending.indexOf(0, start)) {
      const text = this.pending.toString('utf8', start, end).trim();
      if (text) messages.push(text);
      start = end + 1;
    }
    this.pending = this.pending.subarray(start);
    if (this.pending.length > MAX_FRAME_BYTES)
      throw new Error(`a message longer than ${MAX_FRAME_BYTES / 1024} kB without its end`);
    return messages;
  }
}

export function qrcFrame(message: object): string {
  return `${JSON.stringify(message)}\0`;
}
