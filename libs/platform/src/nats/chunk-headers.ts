import { headers as natsHeaders, type Msg, type MsgHdrs } from 'nats';

/**
 * The wire of a chunked reply (chunk-streams.ts): each pull is a request with an empty body to
 * `<subject>.<streamId>`, answered with the next chunk's bytes. Headers say the rest.
 */
export const CHUNK_HEADERS = {
  /** On the reply that carries the last chunk. */
  last: 'Cm-Chunk-Last',
  /** On a reply that ends the stream with an error (its value is the message). */
  error: 'Cm-Chunk-Error',
  /** On a pull that asks the holder to stop the stream instead of answering it. */
  cancel: 'Cm-Chunk-Cancel',
} as const;

export const chunkPull = new Uint8Array(0);

export interface Chunk {
  data: Uint8Array;
  last: boolean;
}

/** A stream that its holder ended with an error: the bytes already sent are not the whole. */
export class ChunkError extends Error {}

export function cancelHeaders(): MsgHdrs {
  const h = natsHeaders();
  h.set(CHUNK_HEADERS.cancel, '1');
  return h;
}

/** The chunk a reply carries, or the ChunkError it reports. */
export function chunkOf(msg: Msg): Chunk {
  const error = msg.headers?.get(CHUNK_HEADERS.error);
  if (error) throw new ChunkError(error);
  return { data: msg.data, last: msg.headers?.get(CHUNK_HEADERS.last) === '1' };
}

export function replyHeaders({ last, error }: { last?: boolean; error?: string }): MsgHdrs | undefined {
  if (!last && !error) return undefined;
  const h = natsHeaders();
  if (last) h.set(CHUNK_HEADERS.last, '1');
  if (error) h.set(CHUNK_HEADERS.error, error.replace(/[\r\n]+/g, ' ') || 'failed');
  return h;
}
