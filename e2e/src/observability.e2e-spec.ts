import { type Building, type Equipment, type MonitoringCheckResult, type Room } from '@cm/contracts';
import { ancestry, eventually as retry, OtlpReceiver } from '@cm/platform/testing';
import { dropNamespace } from '../../services/monitor/test/nats-helpers';
import { sessionHeaders, signIn } from './session';
import { startSystem } from './stack';

const eventually = <T>(check: () => Promise<T> | T, timeoutMs = 30_000) => retry(check, timeoutMs, 200);

/** The port each service logged it serves /metrics on (the gateway's own, the others' probe port). */
function metricsPort(logs: string[], service: string): number {
  for (const line of logs) {
    if (!line.startsWith(`${service} {`)) continue;
    const entry = JSON.parse(line.slice(service.length + 1)) as {
      msg?: string;
      httpPort?: number;
      metricsPort?: number;
    };
    if (entry.metricsPort) return entry.metricsPort;
    if (entry.msg === `${service} ready` && entry.httpPort) return entry.httpPort;
  }
  throw new Error(`${service} logged no port`);
}

const scrape = async (url: string) => {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain;.*version=0\.0\.4/);
  return res.text();
};

/** The value of one series in Prometheus text, or undefined when it is not there. */
const sample = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

/**
 * What an SRE sees of the running system: the traces it sends a collector (here a receiver in the
 * test) and the Prometheus metrics each process serves, after real traffic.
 */
describe('observability of the whole system', () => {
  let receiver: OtlpReceiver;
  let system: Awaited<ReturnType<typeof startSystem>>;
  let cookie: Record<string, string> = {};
  let building: Building;

  const api = async <T = unknown>(method: string, path: string, body?: unknown) => {
    const res = await fetch(`${system.url}${path}`, {
      method,
      headers: { ...cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
  };
  const metricsOf = (service: string) =>
    scrape(`http://127.0.0.1:${metricsPort(system.logs, service)}/metrics`);

  beforeAll(async () => {
    receiver = await OtlpReceiver.start();
    system = await startSystem({
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      // Export within a fraction of a second instead of every 5 s.
      OTEL_BSP_SCHEDULE_DELAY: '100',
      MONITOR_ALLOWED_NETWORKS: '127.0.0.0/8',
      // The gateway writes an access line per request at debug level.
      LOG_LEVEL: 'debug',
      MONITOR_PING_TIMEOUT_MS: '300',
      MONITOR_PING_RETRIES: '1',
    });
    cookie = sessionHeaders(await signIn(system.url, system.admin.username, system.admin.password));
    const created = await api<Building>('POST', '/api/buildings', { name: 'Traced Hall' });
    expect(created.status).toBe(201);
    building = created.body;
  });

  afterAll(async () => {
    await system?.close();
    if (system) await dropNamespace(system.namespace);
    await receiver?.close();
  });

  it('traces POST /api/buildings as one tree: gateway HTTP → NATS → inventory → PostgreSQL; its log line names the trace', async () => {
    const insert = await eventually(() => {
      const root = receiver.spans.find(
        (s) =>
          s.service === 'gateway' &&
          !s.parentSpanId &&
          s.attributes['http.method'] === 'POST' &&
          s.attributes['http.target'] === '/api/buildings',
      );
      expect(root).toBeDefined();
      const found = receiver
        .trace(root!.traceId)
        .find((s) => s.service === 'inventory' && /^INSERT INTO/i.test(String(s.attributes['db.statement'])));
      expect(found).toBeDefined();
      return found!;
    });
    const trace = receiver.trace(insert.traceId);
    expect(ancestry(trace, insert).slice(1)).toEqual(
      expect.arrayContaining([
        'inventory: nats process inventory.building.create',
        'gateway: nats request inventory.building.create',
      ]),
    );
    expect(ancestry(trace, insert).at(-1)).toMatch(/^gateway: POST/);
    // Every span of the trace hangs from the one root: none lost its parent on the way.
    const ids = new Set(trace.map((s) => s.spanId));
    expect(trace.filter((s) => !s.parentSpanId || !ids.has(s.parentSpanId))).toHaveLength(1);
    // The user's first request on this gateway: the access check asks auth for the user and its
    // session version in the same trace (later ones find it kept); the session is read from PostgreSQL.
    expect(trace.map((s) => `${s.service}: ${s.name}`)).toEqual(
      expect.arrayContaining([
        'auth: nats process auth.user.session',
        'gateway: nats request auth.user.session',
      ]),
    );
    expect(trace.some((s) => s.service === 'gateway' && s.attributes['db.system'] === 'postgresql')).toBe(
      true,
    );

    // The gateway's log line of the request leads to this trace and to one of its spans.
    const line = system.logs
      .filter((l) => l.startsWith('gateway {'))
      .map((l) => JSON.parse(l.slice('gateway '.length)) as Record<string, unknown>)
      .find((e) => e.msg === 'request' && e.method === 'POST' && e.route === '/api/buildings');
    expect(line).toMatchObject({ status: 201, trace_id: insert.traceId });
    expect(trace.map((s) => s.spanId)).toContain(line!.span_id);
  });

  it('traces one status change from the monitor’s sweep to inventory’s commit', async () => {
    const room = await api<Room>('POST', `/api/buildings/${building.id}/rooms`, {
      name: '101',
      type: 'Classroom',
      floor: '1',
      capacity: 24,
    });
    const equipment = await api<Equipment>('POST', `/api/rooms/${room.body.id}/equipment`, {
      roomId: room.body.id,
      name: 'projector',
      ipAddress: '127.0.0.5',
      status: 'inactive',
    });
    // The monitor learns of the new equipment from inventory's change events.
    await eventually(async () => {
      expect(await api<MonitoringCheckResult>('POST', '/api/monitoring/check')).toMatchObject({
        status: 200,
        body: { completed: true, targets: 1, answered: 1 },
      });
    });
    await eventually(async () => {
      const res = await api<Equipment[]>('GET', `/api/rooms/${room.body.id}/equipment`);
      expect(res.body.find((e) => e.id === equipment.body.id)?.status).toBe('active');
    });

    const commit = await eventually(() => {
      const processed = receiver.spans.find(
        (s) => s.service === 'inventory' && s.name === 'jetstream process monitor.status.checked',
      );
      expect(processed).toBeDefined();
      const trace = receiver.trace(processed!.traceId);
      const found = trace.find(
        (s) =>
          s.service === 'inventory' &&
          s.attributes['db.statement'] === 'COMMIT' &&
          ancestry(trace, s).includes('inventory: jetstream process monitor.status.checked'),
      );
      expect(found).toBeDefined();
      return found!;
    });
    // Check Now answers after the commit, so the spans above it end (and are exported) later.
    const chain = await eventually(() => {
      const spans = ancestry(receiver.trace(commit.traceId), commit);
      expect(spans.at(-1)).toBe('gateway: POST /api/monitoring/check');
      return spans;
    });
    expect(chain.slice(0, 7)).toEqual([
      expect.stringMatching(/^inventory: pg\.query:COMMIT/),
      'inventory: jetstream process monitor.status.checked',
      'monitor: jetstream publish monitor.status.checked',
      'monitor: monitor sweep share',
      'monitor: monitor sweep',
      'monitor: nats process monitor.check',
      'gateway: nats request monitor.check',
    ]);
  });

  it('serves per-route request counts, errors and latency at the gateway’s /metrics', async () => {
    expect((await api('GET', '/api/buildings')).status).toBe(200);
    expect((await api('GET', `/api/buildings/${building.id}`)).status).toBe(200);
    expect((await api('GET', '/api/buildings/00000000-0000-4000-8000-000000000000')).status).toBe(404);

    const text = await metricsOf('gateway');
    expect(sample(text, 'cm_http_requests_total{method="POST",route="/api/buildings",status="201"}')).toBe(1);
    expect(sample(text, 'cm_http_requests_total{method="GET",route="/api/buildings/:id",status="200"}')).toBe(
      1,
    );
    expect(sample(text, 'cm_http_requests_total{method="GET",route="/api/buildings/:id",status="404"}')).toBe(
      1,
    );
    expect(
      sample(text, 'cm_http_request_duration_seconds_count{method="GET",route="/api/buildings/:id"}'),
    ).toBe(2);
    expect(
      sample(
        text,
        'cm_http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/api/buildings/:id"}',
      ),
    ).toBe(2);
    // NATS request latency per pattern, with the outcome.
    expect(
      sample(
        text,
        'cm_nats_request_duration_seconds_count{outcome="ok",pattern="inventory.building.create"}',
      ),
    ).toBe(1);
    expect(
      sample(
        text,
        'cm_nats_request_duration_seconds_count{outcome="INVENTORY.BUILDING_NOT_FOUND",pattern="inventory.building.get"}',
      ),
    ).toBe(1);
    // The public port does not show them, to the ingress or to whoever reaches the pod.
    const pub = await fetch(`${system.url}/metrics`);
    expect(pub.headers.get('content-type')).not.toMatch(/version=0\.0\.4/);
    expect(await pub.text()).not.toContain('cm_http_requests_total');
  });

  it('serves /metrics on every service: handling latency, sweeps and the JetStream consumer’s lag', async () => {
    const inventory = await metricsOf('inventory');
    expect(
      sample(
        inventory,
        'cm_nats_handle_duration_seconds_count{outcome="ok",pattern="inventory.building.create"}',
      ),
    ).toBe(1);
    const consumer = `consumer="inventory-status",stream="${system.namespace}_STATUS"`;
    await eventually(async () => {
      const text = await metricsOf('inventory');
      expect(sample(text, `cm_jetstream_consumer_pending{${consumer}}`)).toBe(0);
      expect(sample(text, `cm_jetstream_consumer_ack_pending{${consumer}}`)).toBe(0);
      // One message a sweep, and there may have been more than one (Check Now asked again above
      // until it answered as expected): how many is not the point, that each was handled is.
      const handled = (outcome: string) =>
        sample(text, `cm_jetstream_events_handled_total{consumer="inventory-status",outcome="${outcome}"}`);
      expect(handled('ack')).toBeGreaterThanOrEqual(1);
      expect([handled('nak'), handled('term')]).toEqual([undefined, undefined]);
    });

    const monitor = await metricsOf('monitor');
    expect(
      sample(monitor, 'cm_monitor_sweeps_total{outcome="complete",reason="check"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(sample(monitor, 'cm_monitor_status_events_published_total')).toBeGreaterThanOrEqual(1);

    const auth = await metricsOf('auth');
    expect(
      sample(auth, 'cm_nats_handle_duration_seconds_count{outcome="ok",pattern="auth.user.session"}'),
    ).toBeGreaterThan(0);
    expect(await metricsOf('media')).toContain('# TYPE cm_nats_handle_duration_seconds histogram');
  });
});
