import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { get, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { parseEnv } from '@cm/platform';
import { dropNamespaceSchemas, testEnv, testNamespace } from '@cm/platform/testing';
import { type NestExpressApplication } from '@nestjs/platform-express';
import { configSchema } from '../src/config';
import { createGateway } from '../src/gateway';

interface Served {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A GET whose body stays as sent: fetch would undo the Content-Encoding under test. */
function getRaw(url: string, headers: Record<string, string> = {}): Promise<Served> {
  return new Promise((resolve, reject) => {
    const req = get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.setTimeout(10_000, () => req.destroy(new Error(`no answer from ${url}`)));
    req.on('error', reject);
  });
}

/** A build as Vite writes it: hashed assets, and brotli and gzip copies beside the text files. */
function writeBuild(dir: string) {
  const files: Record<string, string> = {
    'index.html':
      '<!doctype html><title>Classroom Monitor</title><script src="/assets/index-C4MRYNAP.js"></script>',
    'sw.js': 'self.addEventListener("fetch", () => {});'.repeat(20),
    'manifest.webmanifest': JSON.stringify({
      name: 'Classroom Monitor',
      start_url: '/',
      display: 'standalone',
    }),
    'assets/index-C4MRYNAP.js': 'export const screens = ["buildings", "rooms", "search"];\n'.repeat(200),
    'assets/index-kE9ecUD5.css': '.card { padding: 1rem; }\n'.repeat(200),
  };
  mkdirSync(path.join(dir, 'assets'));
  mkdirSync(path.join(dir, 'icons'));
  for (const [name, text] of Object.entries(files)) {
    writeFileSync(path.join(dir, name), text);
    writeFileSync(path.join(dir, `${name}.br`), brotliCompressSync(text));
    writeFileSync(path.join(dir, `${name}.gz`), gzipSync(text));
  }
  // Pictures are compressed already: no copies.
  writeFileSync(path.join(dir, 'icons/icon-192.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]));
  return files;
}

describe('web app files', () => {
  const namespace = testNamespace('web');
  const webDir = mkdtempSync(path.join(tmpdir(), 'cm-web-'));
  const files = writeBuild(webDir);
  const script = '/assets/index-C4MRYNAP.js';
  let app: NestExpressApplication;
  let base: string;

  beforeAll(async () => {
    app = await createGateway(
      parseEnv(configSchema, testEnv(namespace, { PORT: '0', WEB_DIST_DIR: webDir })),
    );
    await app.listen(0, '127.0.0.1');
    base = await app.getUrl();
  });
  afterAll(async () => {
    await app.close();
    await dropNamespaceSchemas(namespace);
  });

  it('answers the brotli copy to a browser that takes brotli, the gzip one to one that takes only gzip', async () => {
    const br = await getRaw(`${base}${script}`, { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(br.headers.vary).toMatch(/Accept-Encoding/i);
    expect(br.body.equals(brotliCompressSync(files[script.slice(1)]))).toBe(true);
    expect(Number(br.headers['content-length'])).toBe(br.body.length);

    const gz = await getRaw(`${base}${script}`, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.body.equals(gzipSync(files[script.slice(1)]))).toBe(true);
    expect(gz.headers.vary).toMatch(/Accept-Encoding/i);

    const refusesBrotli = await getRaw(`${base}${script}`, { 'accept-encoding': 'br;q=0, gzip;q=0.8' });
    expect(refusesBrotli.headers['content-encoding']).toBe('gzip');
  });

  it('answers the file itself, still varying by encoding, to a client that takes no compression', async () => {
    const plain = await getRaw(`${base}${script}`, { 'accept-encoding': 'identity' });
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(files[script.slice(1)]);
    expect(plain.headers.vary).toMatch(/Accept-Encoding/i);
    const none = await getRaw(`${base}/assets/index-kE9ecUD5.css`);
    expect(none.headers['content-type']).toMatch(/^text\/css/);
    expect(none.body.toString()).toBe(files['assets/index-kE9ecUD5.css']);
  });

  it('caches hashed files for a year and has the browser ask again for the rest', async () => {
    const hashed = await getRaw(`${base}${script}`, { 'accept-encoding': 'br' });
    expect(hashed.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    for (const name of ['/', '/index.html', '/sw.js', '/manifest.webmanifest', '/icons/icon-192.png']) {
      const res = await getRaw(`${base}${name}`, { 'accept-encoding': 'br' });
      expect([name, res.status, res.headers['cache-control']]).toEqual([name, 200, 'no-cache']);
      expect(res.headers.etag).toBeDefined();
    }
  });

  it('serves the service worker, the manifest and the page with their types', async () => {
    const sw = await getRaw(`${base}/sw.js`, { 'accept-encoding': 'gzip' });
    expect(sw.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(sw.headers['content-encoding']).toBe('gzip');
    const manifest = await getRaw(`${base}/manifest.webmanifest`);
    expect(manifest.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect(JSON.parse(manifest.body.toString())).toMatchObject({ name: 'Classroom Monitor' });
    const page = await getRaw(`${base}/`, { 'accept-encoding': 'br' });
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body.equals(brotliCompressSync(files['index.html']))).toBe(true);
    const icon = await getRaw(`${base}/icons/icon-192.png`, { 'accept-encoding': 'br, gzip' });
    expect(icon.headers['content-type']).toBe('image/png');
    expect(icon.headers['content-encoding']).toBeUndefined();
  });

  it('lets the page register its service worker and manifest under its security policy', async () => {
    const csp = (await getRaw(`${base}/`)).headers['content-security-policy'] ?? '';
    expect(csp).toContain("worker-src 'self'");
    expect(csp).toContain("manifest-src 'self'");
  });

  it('answers a revalidation with 304 and no body', async () => {
    const first = await getRaw(`${base}/sw.js`, { 'accept-encoding': 'br' });
    const again = await getRaw(`${base}/sw.js`, {
      'accept-encoding': 'br',
      'if-none-match': String(first.headers.etag),
    });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  it('leaves the API and deep links to the app as before', async () => {
    const deepLink = await getRaw(`${base}/buildings/4f1c/rooms`);
    expect(deepLink.status).toBe(200);
    expect(deepLink.body.toString()).toContain('<title>Classroom Monitor</title>');
    const api = await getRaw(`${base}/api/healthz`);
    expect(JSON.parse(api.body.toString())).toEqual({ status: 'up' });
    // The compressed copies are ways to send a file, not files of their own.
    const copy = await getRaw(`${base}/assets/index-C4MRYNAP.js.br`);
    expect(copy.headers['content-type']).toMatch(/^text\/html/);
  });
});
