import type { IncomingHttpHeaders } from 'node:http';

/** Whether a conditional GET may be answered 304 (RFC 9110 §13.2.2: If-None-Match wins over If-Modified-Since). */
export function isNotModified(headers: IncomingHttpHeaders, etag: string, lastModified: Date): boolean {
  const ifNoneMatch = headers['if-none-match'];
  if (ifNoneMatch) {
    const strip = (tag: string) => tag.trim().replace(/^W\//, '');
    return ifNoneMatch.trim() === '*' || ifNoneMatch.split(',').some((tag) => strip(tag) === strip(etag));
  }
  const since = Date.parse(headers['if-modified-since'] ?? '');
  // HTTP dates have whole seconds.
  return Number.isFinite(since) && Math.floor(lastModified.getTime() / 1000) * 1000 <= since;
}
