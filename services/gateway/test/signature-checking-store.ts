import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import http, { type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The local S3 server (s3rver) checks no SigV4 signature, which a real store (MinIO, S3) does.
 * This stands in front of it and checks the signature of every presigned request the way such
 * a store does (method, path, query, the signed headers as they arrive, Host among them), with
 * its own implementation rather than the SDK's: a request that passes here passes there. What
 * passes is forwarded as it came; what fails gets S3's 403 SignatureDoesNotMatch.
 */
export async function startSignatureCheckingStore(
  upstream: string,
  secretAccessKey: string,
): Promise<{ endpoint: string; checked: () => number; close(): Promise<void> }> {
  const target = new URL(upstream);
  let checked = 0;
  const handle = (req: IncomingMessage, res: http.ServerResponse, expectsContinue: boolean) => {
    const url = new URL(req.url ?? '/', 'http://store');
    if (url.searchParams.has('X-Amz-Signature')) {
      // MinIO's order: an expired link is refused as such before its signature is compared.
      const refusal = expired(url)
        ? ['AccessDenied', 'Request has expired']
        : !signatureMatches(req, url, secretAccessKey)
          ? [
              'SignatureDoesNotMatch',
              'The request signature we calculated does not match the signature you provided.',
            ]
          : null;
      if (refusal) {
        req.resume();
        res.writeHead(403, { 'content-type': 'application/xml' });
        res.end(
          `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${refusal[0]}</Code><Message>${refusal[1]}</Message></Error>`,
        );
        return;
      }
      checked++;
    }
    // As MinIO (Go's server): "100 Continue" only once the request is accepted and its body read.
    if (expectsContinue) res.writeContinue();
    const { expect: _expect, ...headers } = req.headers;
    const forwarded = http.request(
      {
        hostname: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...headers, host: target.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forwarded.on('error', () => res.destroy());
    // A client that goes away mid-body leaves the store an incomplete request, as it would a real one.
    req.once('close', () => {
      if (!req.complete) forwarded.destroy();
    });
    req.pipe(forwarded);
  };
  const server = http.createServer((req, res) => handle(req, res, false));
  server.on('checkContinue', (req, res) => handle(req, res, true));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    checked: () => checked,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** RFC 3986 encoding, as SigV4 wants it. */
const encode = (text: string) =>
  encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const hmac = (key: Buffer | string, text: string) => createHmac('sha256', key).update(text).digest();

function expired(url: URL): boolean {
  const date = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(
    url.searchParams.get('X-Amz-Date') ?? '',
  );
  if (!date) return true;
  const [, y, mo, d, h, mi, sec] = date.map(Number);
  const signedAt = Date.UTC(y, mo - 1, d, h, mi, sec);
  return Date.now() > signedAt + Number(url.searchParams.get('X-Amz-Expires')) * 1000;
}

function signatureMatches(req: IncomingMessage, url: URL, secret: string): boolean {
  const params = url.searchParams;
  const credential = params.get('X-Amz-Credential') ?? '';
  const [, date, region, service] = credential.split('/');
  const amzDate = params.get('X-Amz-Date') ?? '';
  const signedHeaders = (params.get('X-Amz-SignedHeaders') ?? '').split(';');
  const query = [...params]
    .filter(([name]) => name !== 'X-Amz-Signature')
    .map(([name, value]) => `${encode(name)}=${encode(value)}`)
    .sort()
    .join('&');
  const headers = signedHeaders.map((name) => {
    const value = req.headers[name];
    return `${name}:${(Array.isArray(value) ? value.join(',') : (value ?? '')).trim()}\n`;
  });
  const canonicalRequest = [
    req.method,
    url.pathname,
    query,
    headers.join(''),
    signedHeaders.join(';'),
    'UNSIGNED-PAYLOAD',
  ].join('\n');
  const scope = `${date}/${region}/${service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonicalRequest)].join('\n');
  const key = [date, region, service, 'aws4_request'].reduce<Buffer | string>(
    (k, part) => hmac(k, part ?? ''),
    `AWS4${secret}`,
  );
  const expected = Buffer.from(hmac(key, stringToSign).toString('hex'));
  const given = Buffer.from(params.get('X-Amz-Signature') ?? '');
  return expected.length === given.length && timingSafeEqual(expected, given);
}
