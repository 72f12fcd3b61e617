import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deflateSync, gzipSync } from 'node:zlib';
import { type ApiRouteDef, apiRoutes, ErrorCode } from '@cm/contracts';
import { parseEnv } from '@cm/platform';
import { dropNamespaceSchemas, testEnv, testNamespace } from '@cm/platform/testing';
import { type NestExpressApplication } from '@nestjs/platform-express';
import { configSchema } from '../src/config';
import { createGateway } from '../src/gateway';
import { openApiPath } from '../src/docs/openapi';
import { ReadinessService } from '../src/health/readiness.service';
import { MetricsServer } from '../src/metrics/metrics-server';
import { fetch } from './support';

describe('gateway', () => {
  const namespace = testNamespace('gw');
  const webDir = mkdtempSync(path.join(tmpdir(), 'cm-web-'));
  let app: NestExpressApplication;
  let base: string;

  beforeAll(async () => {
    writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>Classroom Monitor</title>');
    const config = parseEnv(
      configSchema,
      testEnv(namespace, { PORT: '0', WEB_DIST_DIR: webDir, READINESS_TIMEOUT_MS: '1500' }),
    );
    app = await createGateway(config);
    await app.listen(0, '127.0.0.1');
    base = await app.getUrl();
  });
  afterAll(async () => {
    await app.close();
    await dropNamespaceSchemas(namespace);
  });

  it('answers liveness', async () => {
    const res = await fetch(`${base}/api/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'up' });
  });

  it('stays ready with every other service away, since it still serves what needs none of them', async () => {
    const res = await fetch(`${base}/api/readyz`);
    expect(res.status).toBe(200);
    // Its checks are an administrator's to see (./readiness.int-spec.ts): nobody signs in here.
    expect(await res.json()).toEqual({ status: 'up' });
    await expect(app.get(ReadinessService).ready()).resolves.toMatchObject({
      checks: {
        postgres: expect.objectContaining({ status: 'up', critical: true }),
        nats: expect.objectContaining({ status: 'up', critical: true }),
      },
    });
  });

  it('reports the system down instead of hanging', async () => {
    const res = await fetch(`${base}/api/status/system`);
    expect(res.status).toBe(503);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({ status: 'down' });
    const report = await app.get(ReadinessService).system();
    expect(report.checks.gateway.status).toBe('up');
    expect(report.checks.postgres.status).toBe('up');
    expect(report.checks.nats.status).toBe('up');
    // Tests reach the local NATS without credentials, as a development machine does.
    expect(report.nats).toEqual({ auth: 'none' });
    for (const service of ['auth', 'inventory', 'media', 'monitor']) {
      expect(report.checks[service]).toMatchObject({
        status: 'down',
        detail: `The ${service} service is unavailable. Try again shortly.`,
      });
    }
  });

  it('serves Prometheus metrics on the metrics port only, never on the public one', async () => {
    await fetch(`${base}/api/healthz`);
    await fetch(`${base}/api/readyz`);
    const metrics = await fetch(`http://127.0.0.1:${app.get(MetricsServer).port}/metrics`);
    expect(metrics.status).toBe(200);
    const text = await metrics.text();
    expect(text).toContain('cm_http_requests_total{method="GET",route="/api/healthz"');
    // The services are missing here, yet the pod's own checks (PostgreSQL, NATS) pass: it is ready.
    expect(text).toMatch(/^cm_ready 1$/m);
    const pub = await fetch(`${base}/metrics`);
    expect(await pub.text()).not.toContain('cm_http_requests_total');
  });

  it('answers an unknown API path with a JSON 404', async () => {
    const res = await fetch(`${base}/api/no-such-thing`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(await res.json()).toEqual({
      code: ErrorCode.ROUTE_NOT_FOUND,
      message: 'No route GET /api/no-such-thing',
    });
  });

  it('answers malformed JSON with a 400 a person can read', async () => {
    const res = await fetch(`${base}/api/healthz`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name": ',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      code: ErrorCode.VALIDATION_FAILED,
      message: 'The request body is not valid JSON',
    });
  });

  it('answers a body it cannot decompress with a 4xx that says why, never a 500', async () => {
    const post = (encoding: string, body: Buffer) =>
      fetch(`${base}/api/healthz`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-encoding': encoding },
        body,
      });
    const json = Buffer.from('{"name": "Science Hall"}');
    const unreadable = {
      code: ErrorCode.VALIDATION_FAILED,
      message: 'The request body does not decompress as its Content-Encoding says (corrupt or cut short)',
    };

    const unknown = await post('x-unknown', json);
    expect(unknown.status).toBe(415);
    expect(await unknown.json()).toEqual({
      code: ErrorCode.UNSUPPORTED_MEDIA_TYPE,
      message:
        'This Content-Encoding is not supported: send the body uncompressed, or as gzip, deflate or br',
    });
    const notGzip = await post('gzip', json);
    expect(notGzip.status).toBe(400);
    expect(await notGzip.json()).toEqual(unreadable);
    const deflated = deflateSync(json);
    const cutShort = await post('deflate', deflated.subarray(0, deflated.length - 6));
    expect(cutShort.status).toBe(400);
    expect(await cutShort.json()).toEqual(unreadable);
    // A body that does decompress is read: its JSON is judged as usual.
    const gzippedBadJson = await post('gzip', gzipSync('{"name": '));
    expect(gzippedBadJson.status).toBe(400);
    expect(await gzippedBadJson.json()).toMatchObject({ message: 'The request body is not valid JSON' });
  });

  it('serves the web app for deep links so a reload lands on the same screen', async () => {
    for (const page of ['/', '/buildings/4f1c/rooms', '/rooms/9a2e', '/settings']) {
      const res = await fetch(`${base}${page}`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('<title>Classroom Monitor</title>');
    }
  });

  it('publishes an OpenAPI document with every contract route', async () => {
    const res = await fetch(`${base}/api/docs`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(doc.openapi).toBe('3.1.0');
    for (const [name, route] of Object.entries(apiRoutes)) {
      expect(doc.paths[openApiPath(route.path)]?.[route.method.toLowerCase()]).toMatchObject({
        operationId: name,
        summary: route.summary,
        'x-access': route.access,
      });
    }
  });

  it('serves every documented route (documentation and routing cannot drift)', async () => {
    for (const route of Object.values(apiRoutes) as ApiRouteDef[]) {
      const res = await fetch(
        `${base}${route.path.replace(/:[A-Za-z]+/g, '00000000-0000-4000-8000-000000000000')}`,
        {
          method: route.method,
          headers: route.body ? { 'content-type': 'application/json' } : {},
          body: route.body ? '{}' : undefined,
        },
      );
      const body = res.headers.get('content-type')?.includes('json') ? await res.json() : {};
      expect([route.path, (body as { code?: string }).code]).not.toEqual([
        route.path,
        ErrorCode.ROUTE_NOT_FOUND,
      ]);
    }
  });
});
