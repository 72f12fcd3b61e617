import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { type IncomingMessage } from 'node:http';
import { createServer, type Server } from 'node:https';
import { type AddressInfo, Server as NetServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { passwordDestination } from '../src/users/first-admin-password';
import { type KubernetesApi } from '../src/users/kubernetes-secret';

interface Received {
  method?: string;
  url?: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

/**
 * A local HTTPS server standing in for the Kubernetes API server, with a certificate of its own:
 * what arrives, and the answer it is told to give.
 */
class ApiServerStandIn {
  received: Received[] = [];
  answer: { status: number; body: object } = { status: 201, body: {} };
  private server!: Server;
  readonly dir = mkdtempSync(path.join(tmpdir(), 'cm-kube-'));

  async start(): Promise<void> {
    const key = path.join(this.dir, 'key.pem');
    const cert = path.join(this.dir, 'cert.pem');
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
      '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=kubernetes.default.svc',
      '-addext', 'subjectAltName=IP:127.0.0.1',
    ], { stdio: 'ignore' }); // prettier-ignore
    this.server = createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        this.received.push({
          method: req.method,
          url: req.url,
          headers: req.headers,
          body: JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>,
        });
        res.writeHead(this.answer.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(this.answer.body));
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  api(overrides: Partial<KubernetesApi> = {}): KubernetesApi {
    return {
      url: `https://127.0.0.1:${(this.server.address() as AddressInfo).port}`,
      token: 'service-account-token',
      ca: readFileSync(path.join(this.dir, 'cert.pem'), 'utf8'),
      namespace: 'campus',
      timeoutMs: 5000,
      ...overrides,
    };
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A Status object as the API server answers errors. */
const status = (code: number, reason: string, message: string) => ({
  kind: 'Status',
  apiVersion: 'v1',
  status: 'Failure',
  reason,
  message,
  code,
});

describe('the generated first-administrator password kept in a Kubernetes Secret', () => {
  const apiServer = new ApiServerStandIn();
  const destination = (api = apiServer.api()) =>
    passwordDestination(
      { ADMIN_PASSWORD_SECRET: 'cm-first-admin', ADMIN_PASSWORD_OUTPUT_FILE: undefined },
      () => api,
    );

  beforeAll(() => apiServer.start());
  afterAll(() => apiServer.stop());
  beforeEach(() => {
    apiServer.received = [];
    apiServer.answer = { status: 201, body: {} };
  });

  it("creates the Secret in the pod's namespace with the service account's token, username and password", async () => {
    const secret = destination();
    await secret.save('facilities', 'generated-password-123');

    expect(apiServer.received).toHaveLength(1);
    const [request] = apiServer.received;
    expect(request).toMatchObject({
      method: 'POST',
      url: '/api/v1/namespaces/campus/secrets',
      headers: { authorization: 'Bearer service-account-token', 'content-type': 'application/json' },
    });
    expect(request.body).toEqual({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name: 'cm-first-admin',
        namespace: 'campus',
        labels: { 'app.kubernetes.io/part-of': 'classroom-monitor', 'app.kubernetes.io/component': 'auth' },
      },
      type: 'Opaque',
      immutable: true,
      stringData: { username: 'facilities', password: 'generated-password-123' },
    });
    expect(secret.where).toBe('the Secret campus/cm-first-admin (keys username and password)');
  });

  it('never replaces a Secret that exists: 409 is an error asking to delete the old one', async () => {
    apiServer.answer = {
      status: 409,
      body: status(409, 'AlreadyExists', 'secrets "cm-first-admin" already exists'),
    };
    await expect(destination().save('admin', 'generated-password-123')).rejects.toThrow(
      /Secret campus\/cm-first-admin already exists .*Delete it \(or set ADMIN_PASSWORD\)/,
    );
    expect(apiServer.received.map((r) => r.method)).toEqual(['POST']);
  });

  it('names the missing permission when the service account may not create Secrets (403)', async () => {
    apiServer.answer = {
      status: 403,
      body: status(
        403,
        'Forbidden',
        'secrets is forbidden: User "system:serviceaccount:campus:cm-auth" cannot create',
      ),
    };
    await expect(destination().save('admin', 'generated-password-123')).rejects.toThrow(
      /Could not create Secret campus\/cm-first-admin: the pod's service account may not \(403: secrets is forbidden.*Role for auth grants `create` on secrets/,
    );
  });

  it('refuses an API server whose certificate the cluster CA did not sign', async () => {
    const otherCa = execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', '/dev/null', '-days', '1', '-subj', '/CN=other'],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
    ); // prettier-ignore
    await expect(destination(apiServer.api({ ca: otherCa })).save('admin', 'pw-123456789')).rejects.toThrow(
      /Could not create Secret campus\/cm-first-admin: the Kubernetes API at https:\/\/127\.0\.0\.1:\d+ did not answer/,
    );
    expect(apiServer.received).toEqual([]);
  });

  it('gives up on an API server that does not answer within the timeout', async () => {
    const sockets: Socket[] = [];
    const silent = new NetServer((socket) => sockets.push(socket.on('error', () => undefined)));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const api = apiServer.api({
        url: `https://127.0.0.1:${(silent.address() as AddressInfo).port}`,
        timeoutMs: 300,
      });
      await expect(destination(api).save('admin', 'pw-123456789')).rejects.toThrow(
        /did not answer \(no answer within 300 ms\)/,
      );
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
