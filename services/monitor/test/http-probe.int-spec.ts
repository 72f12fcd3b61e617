import { eventually } from '@cm/platform/testing';
import {
  startHttpSimulator,
  startTcpSimulator,
  type HttpSimulator,
  type HttpSimulatorOptions,
} from '@cm/simulators';
import { HttpProbe } from '../src/probes/http/http.probe';
import { SIMULATOR_HOST, requestTo } from './probe-support';

describe(HttpProbe.name, () => {
  const sut = new HttpProbe();
  const http = { type: 'http' as const, https: false, path: '/status', certificateWarningDays: 21 };
  const https = { ...http, https: true };
  const servers: HttpSimulator[] = [];
  const startServer = async (over: Partial<HttpSimulatorOptions> = {}) => {
    const server = await startHttpSimulator({ host: SIMULATOR_HOST, status: 200, ...over });
    servers.push(server);
    return server;
  };
  afterEach(() => Promise.all(servers.splice(0).map((s) => s.close())));

  const day = (date: Date | undefined) => date?.toISOString().slice(0, 10);

  it('finds a page that answers 200 healthy, with the answer time', async () => {
    const server = await startServer();

    expect(await sut.probe(requestTo(server, http))).toEqual({
      outcome: 'answered',
      durationMs: expect.any(Number),
      findings: [],
    });
  });

  it('reports a server error as an error and a missing page as a warning', async () => {
    const server = await startServer({ status: 503 });

    const failing = await sut.probe(requestTo(server, http));
    server.update({ status: 404 });
    const missing = await sut.probe(requestTo(server, http));

    expect(failing).toMatchObject({
      outcome: 'answered',
      findings: [{ state: 'error', reason: 'HTTP 503' }],
    });
    expect(missing).toMatchObject({
      outcome: 'answered',
      findings: [{ state: 'warning', reason: 'HTTP 404' }],
    });
  });

  it('reads a self-signed certificate’s expiry and is content while it is months away', async () => {
    const server = await startServer({ tls: { expiresInDays: 200 } });

    expect(await sut.probe(requestTo(server, https))).toEqual({
      outcome: 'answered',
      durationMs: expect.any(Number),
      findings: [],
      certificateExpiresAt: server.certificateExpiresAt?.toISOString(),
    });
  });

  it('warns of a certificate expiring within the warning days', async () => {
    const server = await startServer({ tls: { expiresInDays: 5 } });

    expect(await sut.probe(requestTo(server, https))).toMatchObject({
      outcome: 'answered',
      findings: [
        { state: 'warning', reason: `TLS certificate expires on ${day(server.certificateExpiresAt)}` },
      ],
      certificateExpiresAt: server.certificateExpiresAt?.toISOString(),
    });
  });

  it('reports an expired certificate as an error, beside the status', async () => {
    const server = await startServer({ status: 500, tls: { expiresInDays: -3 } });

    expect(await sut.probe(requestTo(server, https))).toMatchObject({
      outcome: 'answered',
      findings: [
        { state: 'error', reason: 'HTTP 500' },
        { state: 'error', reason: `TLS certificate expired on ${day(server.certificateExpiresAt)}` },
      ],
    });
  });

  it('says TLS failed when HTTPS is set for a server that speaks plain HTTP', async () => {
    const server = await startServer();

    expect(await sut.probe(requestTo(server, https))).toEqual({
      outcome: 'protocol-error',
      findings: [],
      detail: `TLS handshake failed on port ${server.port}`,
    });
  });

  it('answers a path it cannot send (saved before paths were checked) with a protocol error', async () => {
    const server = await startServer();

    expect(await sut.probe(requestTo(server, { ...http, path: '/my page' }))).toEqual({
      outcome: 'protocol-error',
      findings: [],
      detail: 'The request cannot be sent: Request path contains unescaped characters',
    });
  });

  it('gives up within the timeout on a server that takes the request and never answers', async () => {
    const hung = await startServer({ silent: true });
    const silentTls = await startTcpSimulator({ host: SIMULATOR_HOST });
    try {
      const [plain, tls] = await Promise.all([
        sut.probe(requestTo(hung, http, { timeoutMs: 500 })),
        sut.probe(requestTo(silentTls, https, { timeoutMs: 500 })),
      ]);

      expect(plain).toEqual({ outcome: 'unreachable', findings: [], detail: 'No answer within 0.5 s' });
      expect(tls).toEqual({ outcome: 'unreachable', findings: [], detail: 'No answer within 0.5 s' });
      await eventually(() => expect(silentTls.openConnections).toBe(0));
    } finally {
      await silentTls.close();
    }
  });
});
