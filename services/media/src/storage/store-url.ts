import { objectKeyPattern } from '@cm/contracts';

export interface StoreAddress {
  /** Base URLs the store answers at (public and internal). */
  endpoints: string[];
  bucket: string;
  forcePathStyle: boolean;
}

// Dot segments and encoded separators are refused before parsing, because the URL parser
// would resolve them into a key that looks like ours.
const pathTricks = /\.\.|%2e|%2f|%5c|\\/i;

/**
 * The object key of a URL of our own store (scheme, host, port and bucket must match exactly,
 * the key must be one media issues), or null. A presigned URL's query string is ignored.
 */
export function keyFromStoreUrl(raw: string, store: StoreAddress): string | null {
  if (pathTricks.test(raw.split(/[?#]/)[0])) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.username || url.password || url.hash) return null;
  for (const endpoint of store.endpoints) {
    const base = new URL(endpoint);
    const basePath = base.pathname.replace(/\/+$/, '');
    const host = store.forcePathStyle ? base.host : `${store.bucket}.${base.host}`;
    const prefix = store.forcePathStyle ? `${basePath}/${store.bucket}/` : `${basePath}/`;
    if (url.protocol !== base.protocol || url.host !== host || !url.pathname.startsWith(prefix)) continue;
    const key = url.pathname.slice(prefix.length);
    if (objectKeyPattern.test(key)) return key;
  }
  return null;
}
