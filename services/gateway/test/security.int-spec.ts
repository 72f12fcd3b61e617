import path from 'node:path';
import { ErrorCode } from '@cm/contracts';
import { adminCredentials, fetch, openRequest, startAuthAndGateway, startGateway } from './support';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { stackEnv } = require(path.join(__dirname, '../../../scripts/stack.cjs')) as {
  stackEnv(given: Record<string, string>, port: number): Record<string, string>;
};

/** A sign-in as a page served from another host name sends it: that Host, and an Origin to match. */
const rebound = (base: string, host: string) => {
  const body = Buffer.from(JSON.stringify(adminCredentials));
  const req = openRequest(`${base}/api/login`, 'POST', {
    host,
    origin: `http://${host}`,
    'content-type': 'application/json',
    'content-length': body.length,
  });
  req.end(body);
  return req.answer;
};

describe('cross-site requests and security headers', () => {
  let sut: Awaited<ReturnType<typeof startAuthAndGateway>>;

  const post = (path: string, headers: Record<string, string>, base = sut.base) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(adminCredentials),
    });
  const refused = async (res: Response) => {
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: ErrorCode.CROSS_SITE_REQUEST });
  };

  beforeAll(async () => {
    sut = await startAuthAndGateway({ S3_PUBLIC_ENDPOINT: 'https://files.campus.example:9000/media' });
  });
  afterAll(() => sut?.close());

  describe('a state-changing request from another origin', () => {
    it('is refused with 403 when its Origin is foreign, or "null"', async () => {
      await refused(await post('/api/login', { origin: 'https://evil.example' }));
      await refused(await post('/api/login', { origin: 'null' }));
      // Same host, other scheme or port: another origin.
      await refused(await post('/api/login', { origin: sut.base.replace('http:', 'https:') }));
      await refused(await post('/api/login', { origin: 'http://127.0.0.1:1' }));
    });

    it('is refused by its Referer when it has no Origin', async () => {
      await refused(await post('/api/login', { referer: 'https://evil.example/page' }));
      expect((await post('/api/login', { referer: `${sut.base}/buildings` })).status).toBe(200);
    });

    it('is refused for every method that changes state, signed in or not, and changes nothing', async () => {
      const cookie = await sut.adminCookie();
      const origin = 'https://evil.example';
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
        await refused(await fetch(`${sut.base}/api/users`, { method, headers: { cookie, origin } }));
      }
      await refused(await fetch(`${sut.base}/api/logout`, { method: 'POST', headers: { cookie, origin } }));
      expect((await fetch(`${sut.base}/api/auth/user`, { headers: { cookie } })).status).toBe(200);
    });

    it('lets through our own origin, requests without Origin or Referer, and reads from anywhere', async () => {
      expect((await post('/api/login', { origin: sut.base })).status).toBe(200);
      expect((await post('/api/login', {})).status).toBe(200);
      const cookie = await sut.adminCookie();
      const read = await fetch(`${sut.base}/api/auth/user`, {
        headers: { cookie, origin: 'https://evil.example' },
      });
      expect(read.status).toBe(200);
    });

    it('takes the origin from PUBLIC_ORIGIN when it is set', async () => {
      const configured = await startGateway(sut.namespace, {
        PUBLIC_ORIGIN: 'https://monitor.campus.example, http://localhost:5173',
      });
      try {
        expect(
          (await post('/api/login', { origin: 'https://monitor.campus.example' }, configured.base)).status,
        ).toBe(200);
        expect((await post('/api/login', { origin: 'http://localhost:5173' }, configured.base)).status).toBe(
          200,
        );
        await refused(await post('/api/login', { origin: configured.base }, configured.base));
      } finally {
        await configured.close();
      }
    });

    it("refuses a page on a rebound host name (its own Host and Origin) under `npm start`'s PUBLIC_ORIGIN", async () => {
      const port = Number(new URL(sut.base).port);
      // Without PUBLIC_ORIGIN the Host decides, and a DNS-rebinding page chooses it.
      expect((await rebound(sut.base, `rebind.example:${port}`)).status).toBe(200);

      const { PUBLIC_ORIGIN } = stackEnv({}, 8080);
      expect(PUBLIC_ORIGIN).toBe('http://127.0.0.1:8080,http://localhost:8080');
      expect(stackEnv({ PUBLIC_ORIGIN: 'https://av.campus.example' }, 8080).PUBLIC_ORIGIN).toBe(
        'https://av.campus.example',
      );
      const started = await startGateway(sut.namespace, { PUBLIC_ORIGIN });
      try {
        const port = Number(new URL(started.base).port);
        const answer = await rebound(started.base, `rebind.example:${port}`);
        expect(answer).toMatchObject({ status: 403, body: { code: ErrorCode.CROSS_SITE_REQUEST } });
        expect(answer.body.message).toContain(`http://rebind.example:${port}`);
        expect((await post('/api/login', { origin: 'http://localhost:8080' }, started.base)).status).toBe(
          200,
        );
        expect((await post('/api/login', { origin: 'http://127.0.0.1:8080' }, started.base)).status).toBe(
          200,
        );
      } finally {
        await started.close();
      }
    });

    it('believes X-Forwarded-Host and -Proto only from a trusted proxy', async () => {
      const forwarded = {
        origin: 'https://monitor.campus.example',
        'x-forwarded-host': 'monitor.campus.example',
        'x-forwarded-proto': 'https',
      };
      await refused(await post('/api/login', forwarded));
      const proxied = await startGateway(sut.namespace, { TRUST_PROXY: 'loopback' });
      try {
        expect((await post('/api/login', forwarded, proxied.base)).status).toBe(200);
      } finally {
        await proxied.close();
      }
    });
  });

  describe('headers', () => {
    it('sends the security headers on API answers, errors and the web app', async () => {
      for (const path of ['/api/healthz', '/api/no-such-route', '/api/auth/user', '/', '/rooms/1']) {
        const res = await fetch(`${sut.base}${path}`);
        const h = (name: string) => [path, res.headers.get(name)];
        expect(h('x-content-type-options')).toEqual([path, 'nosniff']);
        expect(h('x-frame-options')).toEqual([path, 'DENY']);
        expect(h('referrer-policy')).toEqual([path, 'same-origin']);
        expect(h('cross-origin-opener-policy')).toEqual([path, 'same-origin']);
        expect(h('x-powered-by')).toEqual([path, null]);
        const csp = res.headers.get('content-security-policy') ?? '';
        for (const directive of [
          "default-src 'self'",
          "script-src 'self'",
          "object-src 'none'",
          "frame-ancestors 'none'",
          "img-src 'self' data: blob: https://files.campus.example:9000",
          "connect-src 'self' https://files.campus.example:9000",
        ]) {
          expect([path, csp]).toEqual([path, expect.stringContaining(directive)]);
        }
        expect([path, csp]).toEqual([path, expect.not.stringContaining('unsafe-eval')]);
      }
    });

    it('keeps API answers out of every cache', async () => {
      const cookie = await sut.adminCookie();
      const res = await fetch(`${sut.base}/api/auth/user`, { headers: { cookie } });
      expect(res.headers.get('cache-control')).toBe('no-store');
      // Nothing stored, nothing to revalidate: no ETag either.
      expect(res.headers.get('etag')).toBeNull();
    });
  });
});
