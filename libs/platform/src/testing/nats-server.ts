import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connect, type JetStreamManager, type NatsConnection } from 'nats';
import { eventually } from './eventually';

// The launcher's port choice (outside the range of outgoing connections, claimed against other
// processes): a server restarted on its port, or a route to a peer not yet up, would otherwise find
// the port taken by some connection meanwhile.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const portClaims = require(path.resolve(__dirname, '../../../../scripts/port-claims.cjs')) as {
  claimPortAhead(host: string): Promise<Server>;
  releasePort(port: number, host: string): void;
};

/** `count` different ports for servers of a test's own, each claimed until releasePorts. */
async function claimPorts(count: number): Promise<number[]> {
  const held: Server[] = [];
  try {
    for (let i = 0; i < count; i++) held.push(await portClaims.claimPortAhead('127.0.0.1'));
    return held.map((server) => (server.address() as { port: number }).port);
  } finally {
    await Promise.all(held.map((server) => new Promise((resolve) => server.close(resolve))));
  }
}

const releasePorts = (claimed: number[]) => {
  for (const port of claimed) portClaims.releasePort(port, '127.0.0.1');
};

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
    /** The ports this server claimed (its own client port, unless given one). */
    private readonly claimed: number[],
  ) {}

  /**
   * `config` is added to the server's configuration file (e.g. an `authorization` block); `env`
   * holds the variables it names (`password: $NATS_GATEWAY_PASSWORD`). `port`: its client port
   * (a free one by default).
   */
  static async start(config = '', env: Record<string, string> = {}, port?: number): Promise<OwnNatsServer> {
    const dir = mkdtempSync(path.join(tmpdir(), 'cm-nats-'));
    const claimed = port === undefined ? await claimPorts(1) : [];
    const server = new OwnNatsServer(port ?? claimed[0], dir, { ...process.env, ...env }, claimed);
    writeFileSync(
      path.join(dir, 'nats.conf'),
      [
        `listen: "127.0.0.1:${server.port}"`,
        `jetstream { store_dir: ${JSON.stringify(path.join(dir, 'js'))} }`,
        config,
      ].join('\n'),
      { mode: 0o600 },
    );
    try {
      await server.up();
    } catch (error) {
      rmSync(dir, { recursive: true, force: true });
      releasePorts(claimed);
      throw error;
    }
    return server;
  }

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  /** The server's process id while it runs. */
  get pid(): number | undefined {
    return this.running ? this.child?.pid : undefined;
  }

  get running(): boolean {
    return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
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

  /** Stops the server: SIGTERM lets it say goodbye to its clients and its cluster, SIGKILL does not. */
  async down(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const child = this.child;
    if (!child || !this.running) return;
    await new Promise((resolve) => {
      child.once('exit', resolve);
      child.kill(signal);
    });
  }

  async close(): Promise<void> {
    await this.down();
    rmSync(this.dir, { recursive: true, force: true });
    releasePorts(this.claimed);
  }
}

/**
 * A cluster of NATS servers with JetStream on loopback, each its own process with its own store
 * (`n0`, `n1`, … by server name), for what a single server cannot show: streams with several
 * copies, and losing the server that leads one of them.
 */
export class OwnNatsCluster {
  private constructor(
    readonly servers: OwnNatsServer[],
    /** Each server's monitoring port (`/connz`, …). */
    private readonly httpPorts: number[],
    /** Every port the cluster claimed: clients', routes' and monitoring. */
    private readonly claimed: number[],
  ) {}

  /** Starts `size` servers routed to one another, and resolves once JetStream has a leader. */
  static async start(size = 3): Promise<OwnNatsCluster> {
    const ports = await claimPorts(3 * size);
    const name = `cm_test_${randomBytes(4).toString('hex')}`;
    const routes = ports.slice(size, 2 * size).map((p) => `"nats-route://127.0.0.1:${p}"`);
    const started = await Promise.allSettled(
      ports
        .slice(0, size)
        .map((port, i) =>
          OwnNatsServer.start(
            [
              `server_name: n${i}`,
              `http: "127.0.0.1:${ports[2 * size + i]}"`,
              `cluster { name: ${name}, listen: "127.0.0.1:${ports[size + i]}", routes: [${routes.join(', ')}] }`,
            ].join('\n'),
            {},
            port,
          ),
        ),
    );
    const servers = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    const cluster = new OwnNatsCluster(servers, ports.slice(2 * size), ports);
    try {
      const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
      if (failed) throw failed.reason;
      // Each server answers JetStream's account info only once the cluster has elected a leader.
      await eventually(() => cluster.withJetStream((jsm) => jsm.getAccountInfo()), 30_000, 250);
    } catch (error) {
      await cluster.close();
      throw error;
    }
    return cluster;
  }

  /** The version nats-server says it is. */
  get version(): string {
    return /Version:\s+(\S+)/.exec(this.servers[0].log)?.[1] ?? 'unknown';
  }

  /** Every server's client URL, comma-separated, as NATS_URL takes them. */
  get url(): string {
    return this.servers.map((s) => s.url).join(',');
  }

  /** The index of the server named `name` (`n1` → 1). */
  indexOf(name: string): number {
    const index = Number(/^n(\d+)$/.exec(name)?.[1] ?? NaN);
    if (!this.servers[index]) throw new Error(`No server ${name} in this cluster`);
    return index;
  }

  /** The server that leads `stream` (a namespaced stream name) now. */
  async leaderOf(stream: string): Promise<number> {
    const info = await this.withJetStream((jsm) => jsm.streams.info(stream));
    if (!info.cluster?.leader) throw new Error(`The stream ${stream} has no leader now`);
    return this.indexOf(info.cluster.leader);
  }

  /** Whether every copy of `stream` is on a running server and has all its messages. */
  async allCopiesCurrent(stream: string): Promise<boolean> {
    const info = await this.withJetStream((jsm) => jsm.streams.info(stream));
    const others = info.cluster?.replicas ?? [];
    return (
      !!info.cluster?.leader &&
      others.length === info.config.num_replicas - 1 &&
      others.every((r) => r.current && !r.offline)
    );
  }

  /**
   * Makes server `index` the leader of `stream`: the leader is asked to step down, and the copies
   * elect another, until the one wanted wins.
   */
  async makeLeader(stream: string, index: number, timeoutMs = 60_000): Promise<void> {
    await eventually(
      async () => {
        const leader = await this.leaderOf(stream);
        if (leader === index) return;
        await this.withJetStream((_jsm, nc) => nc.request(`$JS.API.STREAM.LEADER.STEPDOWN.${stream}`));
        throw new Error(`n${leader} leads ${stream}, not n${index}`);
      },
      timeoutMs,
      500,
    );
  }

  /** The server the client named `name` is connected to now, if any. */
  async serverOf(name: string): Promise<number | undefined> {
    for (const [index, server] of this.servers.entries())
      if (server.running && (await this.clientsOf(index)).includes(name)) return index;
    return undefined;
  }

  /** The names of the clients connected to server `index` now (connections name their process). */
  async clientsOf(index: number): Promise<string[]> {
    const res = await fetch(`http://127.0.0.1:${this.httpPorts[index]}/connz?limit=4096`, {
      signal: AbortSignal.timeout(5000),
    });
    const { connections } = (await res.json()) as { connections?: { name?: string }[] };
    return (connections ?? []).map((c) => c.name ?? '(unnamed)');
  }

  /** Runs `use` on a connection to the servers that run now, closed afterwards. */
  async withJetStream<T>(use: (jsm: JetStreamManager, nc: NatsConnection) => Promise<T>): Promise<T> {
    const nc = await connect({
      servers: this.servers.filter((s) => s.running).map((s) => s.url),
      name: 'test-cluster',
      timeout: 5000,
    });
    try {
      return await use(await nc.jetstreamManager({ timeout: 5000 }), nc);
    } finally {
      await nc.close();
    }
  }

  async close(): Promise<void> {
    // Killed rather than stopped: none waits for the others to say goodbye, and the store goes too.
    await Promise.all(this.servers.map((s) => s.down('SIGKILL')));
    await Promise.all(this.servers.map((s) => s.close()));
    releasePorts(this.claimed);
  }
}
