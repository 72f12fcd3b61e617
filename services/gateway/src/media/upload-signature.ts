import { timingSafeEqual } from 'node:crypto';
import { CONFIG } from '@cm/platform';
import { Sha256 } from '@smithy/core/checksum';
import { SignatureV4 } from '@smithy/signature-v4';
import { Inject, Injectable } from '@nestjs/common';
import { type Config } from '../config';

/** What a presigned upload link is worth, judged as S3 judges it. */
export type LinkVerdict = 'valid' | 'expired' | 'invalid';

/** The request a link was signed for, as the gateway will send it to the store. */
export interface SignedPut {
  /** The Host header the store receives (node writes it from the store's address). */
  host: string;
  path: string;
  /** The link's query, the signature among it; each parameter once. */
  query: Record<string, string>;
  contentLength: number;
}

/** S3 refuses a link signed further ahead of its clock than this (a media replica's clock ahead of ours). */
const CLOCK_SKEW_MS = 15 * 60_000;
/** SigV4's longest link: a week. */
const MAX_EXPIRES_S = 7 * 24 * 60 * 60;
const ALGORITHM = 'AWS4-HMAC-SHA256';
/** Payload hash of every presigned request: the body is not signed, its length is. */
const UNSIGNED_PAYLOAD = 'UNSIGNED-PAYLOAD';
const PAYLOAD_HASH_HEADER = 'x-amz-content-sha256';
const SIGNED_PARAMS = [
  'X-Amz-Algorithm',
  'X-Amz-Credential',
  'X-Amz-Date',
  'X-Amz-Expires',
  'X-Amz-SignedHeaders',
];

/**
 * Checks a presigned PUT the way S3 and MinIO do, with media's credentials, so that what the
 * gateway forwards is only what a real store would take, whatever the store behind it checks
 * (the local one checks nothing). The signature is computed again by the SDK's own signer for
 * the same request (method, path, query, the Host and Content-Length it is sent with) and compared
 * in constant time; the signed date and lifetime decide expiry.
 */
@Injectable()
export class UploadSignature {
  private readonly signer: SignatureV4 | null;
  private readonly accessKeyId: string;
  private readonly region: string;

  constructor(@Inject(CONFIG) config: Config) {
    this.accessKeyId = config.S3_ACCESS_KEY_ID ?? '';
    this.region = config.S3_REGION;
    this.signer =
      config.S3_ACCESS_KEY_ID && config.S3_SECRET_ACCESS_KEY
        ? new SignatureV4({
            service: 's3',
            region: config.S3_REGION,
            credentials: {
              accessKeyId: config.S3_ACCESS_KEY_ID,
              secretAccessKey: config.S3_SECRET_ACCESS_KEY,
            },
            sha256: Sha256,
            // S3 signs the path as sent, not encoded twice.
            uriEscapePath: false,
          })
        : null;
  }

  async verify(put: SignedPut, now = Date.now()): Promise<LinkVerdict> {
    const { 'X-Amz-Signature': given, ...query } = put.query;
    const signedAt = parseAmzDate(query['X-Amz-Date']);
    const expiresIn = Number(query['X-Amz-Expires']);
    if (signedAt === null || !Number.isInteger(expiresIn) || expiresIn < 1 || expiresIn > MAX_EXPIRES_S) {
      return 'invalid';
    }
    // As MinIO: an expired link is refused as such before its signature is compared.
    if (now > signedAt.getTime() + expiresIn * 1000) return 'expired';
    if (
      !this.signer ||
      !given ||
      !/^[0-9a-f]{64}$/.test(given) ||
      query['X-Amz-Algorithm'] !== ALGORITHM ||
      query['X-Amz-Credential'] !==
        `${this.accessKeyId}/${query['X-Amz-Date'].slice(0, 8)}/${this.region}/s3/aws4_request` ||
      signedAt.getTime() > now + CLOCK_SKEW_MS
    ) {
      return 'invalid';
    }

    const expected = await this.signer.presign(
      {
        method: 'PUT',
        protocol: 'http:',
        hostname: put.host,
        path: put.path,
        query,
        headers: {
          host: put.host,
          'content-length': String(put.contentLength),
          // Read by the signer as the payload hash; neither signed nor moved into the query.
          [PAYLOAD_HASH_HEADER]: UNSIGNED_PAYLOAD,
        },
      },
      {
        signingDate: signedAt,
        expiresIn,
        unsignableHeaders: new Set([PAYLOAD_HASH_HEADER]),
        unhoistableHeaders: new Set([PAYLOAD_HASH_HEADER]),
      },
    );
    const signed = expected.query ?? {};
    // The signer writes the parameters it signs itself (SignedHeaders: content-length;host): the link
    // forwarded must carry the same, or a store that checks would see another request than this one.
    if (SIGNED_PARAMS.some((name) => signed[name] !== query[name])) return 'invalid';
    const computed = String(signed['X-Amz-Signature'] ?? '');
    return computed.length === given.length && timingSafeEqual(Buffer.from(computed), Buffer.from(given))
      ? 'valid'
      : 'invalid';
  }
}

/** `20240131T235959Z` → that instant, or null. */
function parseAmzDate(text: string | undefined): Date | null {
  const parts = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text ?? '');
  if (!parts) return null;
  const [, y, mo, d, h, mi, s] = parts.map(Number);
  const date = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  return Number.isNaN(date.getTime()) ? null : date;
}
