import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/**
 * A NATS server of a test's own on loopback, with JetStream in a temporary folder: it can be
 * restarted, or given a configuration (users and permissions), without disturbing the shared one.
 */
export class OwnNatsServer {
  private child?: ChildProcess;
  /** What the server logged, for a test to look for permission violations. */
  log = '';

  private constructor(
    readonly port: number,
    private readonly dir: string,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  /**
   * `config` is added to the server's configuration file (e.g. an `authorization` block); `env`
   * holds the variables it names (`password: $NATS_GATEWAY_PASSWORD`).
   */
  static async start(config = '', env: Record<string, string> = {}): Promise<OwnNatsServer> {
    const dir = mkdtempSync(path.join(tmpdir(), 'cm-nats-'));
    const server = new OwnNatsServer(await freePort(), dir, { ...process.env, ...env });
    writeFileSync(
      path.join(dir, 'nats.conf'),
      [
        `listen: "127.0.0.1:${server.port}"`,
        `jetstream { store_dir: ${JSON.stringify(path.join(dir, 'js'))} }`,
        config,
      ].join('\n'),
      { mode: 0o600 },
    );
    await server.up();
    return server;
  }

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  async up(): Promise<void> {
    const child = spawn('/usr/sbin/nats-server', ['-c', path.join(this.dir, 'nats.conf')], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: this.env,
    });
    this.child = child;
    await new Promise<void>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`nats-server exited with ${code}:\n${this.log}`)));
      child.stderr!.on('data', (chunk: Buffer) => {
        this.log += chunk.toString();
        if (this.log.includes('Server is ready')) resolve();
      });
    });
    child.removeAllListeners('exit');
  }

  async down(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    await new Promise((resolve) => {
      child.once('exit', resolve);
      child.kill('SIGTERM');
    });
  }

  async close(): Promise<void> {
    await this.down();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
