import { apiRoutes, type HealthReport } from '@cm/contracts';
import { HealthService } from '@cm/platform';
import {
  dropNamespaceSchemas,
  serviceFromSource,
  startLocalS3,
  startTestService,
  testNamespace,
} from '@cm/platform/testing';
import { ReadinessService } from '../src/health/readiness.service';
import { MetricsServer } from '../src/metrics/metrics-server';
import { adminCredentials, fetch, type Gateway, signIn, startGateway } from './support';

/**
 * The gateway pod's readiness counts only what the process itself needs, so that a service or a
 * store being away never takes every route out of the load balancer; the system status is where
 * people see what is missing.
 */
describe('gateway readiness beside the system status', () => {
  const namespace = testNamespace('gw');
  let s3: Awaited<ReturnType<typeof startLocalS3>>;
  let auth: Awaited<ReturnType<typeof startTestService>> | undefined;
  let media: Awaited<ReturnType<typeof startTestService>> | undefined;
  let gateway: Gateway;

  let adminCookie: string;
  /** As an administrator, who alone is shown the checks; `cookie: ''` asks as anybody. */
  const systemStatus = async (cookie = adminCookie) => {
    const res = await fetch(`${gateway.base}${apiRoutes.systemStatus.path}`, { headers: { cookie } });
    return { status: res.status, report: (await res.json()) as HealthReport };
  };
  const readyz = async (base: string) => (await fetch(`${base}/readyz`)).status;

  beforeAll(async () => {
    s3 = await startLocalS3();
    auth = await startTestService({
      ...serviceFromSource('auth'),
      namespace,
      env: { ADMIN_USERNAME: adminCredentials.username, ADMIN_PASSWORD: adminCredentials.password },
    });
    media = await startTestService({
      ...serviceFromSource('media'),
      namespace,
      env: { S3_ENDPOINT: s3.endpoint, S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER' },
    });
    gateway = await startGateway(namespace, { S3_PUBLIC_ENDPOINT: s3.endpoint });
    adminCookie = (await signIn(gateway.base, adminCredentials.username, adminCredentials.password)).cookie;
  });
  afterAll(async () => {
    await gateway?.close();
    await media?.close();
    await auth?.close();
    await s3?.close();
    await dropNamespaceSchemas(namespace);
  });

  it('reports the services that run as up and the ones that do not as down', async () => {
    const { status, report } = await systemStatus();
    expect(status).toBe(503);
    expect(report.checks.auth).toMatchObject({ status: 'up' });
    expect(report.checks.media).toMatchObject({ status: 'up' });
    expect(report.checks.inventory).toMatchObject({
      status: 'down',
      detail: 'The inventory service is unavailable. Try again shortly.',
    });
    expect(report.nats).toEqual({ auth: 'none' });
    expect((await fetch(`${gateway.base}/api/readyz`)).status).toBe(200);
  });

  it('tells anybody but an administrator only up or down: no services, no checks, not how NATS is secured', async () => {
    const clerk = { username: 'clerk', password: 'clerk secret phrase' };
    const created = await fetch(`${gateway.base}/api/users`, {
      method: 'POST',
      headers: { cookie: adminCookie, 'content-type': 'application/json' },
      body: JSON.stringify(clerk),
    });
    expect(created.status).toBe(201);
    const clerkCookie = (await signIn(gateway.base, clerk.username, clerk.password)).cookie;
    for (const cookie of ['', clerkCookie, 'cm.sid=s%3Anot-a-session.x']) {
      const system = await systemStatus(cookie);
      expect({ cookie, ...system }).toEqual({ cookie, status: 503, report: { status: 'down' } });
      const ready = await fetch(`${gateway.base}/api/readyz`, { headers: { cookie } });
      expect({ cookie, status: ready.status, body: await ready.json() }).toEqual({
        cookie,
        status: 200,
        body: { status: 'up' },
      });
    }
    const ready = await fetch(`${gateway.base}/api/readyz`, { headers: { cookie: adminCookie } });
    expect(await ready.json()).toMatchObject({ checks: { nats: { status: 'up' } }, nats: { auth: 'none' } });
  });

  it('answers a burst of status requests with a shared round of questions, not one round each', async () => {
    // How often the gateway has asked auth for its health, from the gateway's own metrics.
    const asked = async () => {
      const text = await (
        await fetch(`http://127.0.0.1:${gateway.app.get(MetricsServer).port}/metrics`)
      ).text();
      const line = text
        .split('\n')
        .find((l) => l.startsWith('cm_nats_request_duration_seconds_count{') && l.includes('auth.health'));
      return Number(line?.split(' ').pop() ?? 0);
    };
    // The first round is held until all 20 requests have asked for the status, so that they do
    // overlap however slowly a loaded machine lets them in: its gateway's own checks wait.
    const readiness = gateway.app.get(ReadinessService);
    const health = gateway.app.get(HealthService);
    const system = readiness.system.bind(readiness);
    const report = health.report.bind(health);
    let asking = 0;
    let allAsked = () => {};
    const everyoneAsked = new Promise<void>((resolve) => (allAsked = resolve));
    const callers = jest.spyOn(readiness, 'system').mockImplementation(() => {
      if (++asking === 20) allAsked();
      return system();
    });
    const held = jest.spyOn(health, 'report').mockImplementation(async () => {
      await everyoneAsked;
      return report();
    });
    try {
      const before = await asked();
      const answers = await Promise.all(Array.from({ length: 20 }, () => systemStatus()));
      expect(answers.every((a) => a.report.checks.auth.status === 'up')).toBe(true);
      expect((await asked()) - before).toBe(1);
    } finally {
      callers.mockRestore();
      held.mockRestore();
    }
  });

  it('keeps media and the gateway ready while the object store is away, and names the store', async () => {
    await s3.close();
    expect(await readyz(await media!.app.getUrl())).toBe(200);
    expect((await fetch(`${gateway.base}/api/readyz`)).status).toBe(200);
    const { report } = await systemStatus();
    expect(report.checks.media).toMatchObject({ status: 'down', detail: expect.stringMatching(/^s3: /) });
  });

  it('stays ready while a service stops: routes that need it answer 503, the rest are served', async () => {
    await auth!.close();
    auth = undefined;

    expect((await fetch(`${gateway.base}/api/readyz`)).status).toBe(200);
    // Who is an administrator is auth's to say: with auth away, everybody is shown the status.
    const { status, report } = await systemStatus('');
    expect(status).toBe(503);
    expect(report).toEqual({ status: 'down' });

    const login = await fetch(`${gateway.base}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(adminCredentials),
    });
    expect(login.status).toBe(503);
    expect((await fetch(`${gateway.base}/api/docs`)).status).toBe(200);
  });
});
