import { execFileSync } from 'node:child_process';
import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { type AddressInfo } from 'node:net';
import {
  type EquipmentChangedEvent,
  events,
  kvBuckets,
  type MonitorTarget,
  namespacedName,
  namespacedSubject,
  patterns,
  type StatusEvent,
  statusEventSchema,
  type TargetsPageRequest,
} from '@cm/contracts';
import { deleteNamespaceStreams, JetStreamConnection } from '@cm/platform';
import { startTestService, testNamespace, testNatsUrl, type TestService } from '@cm/platform/testing';
import { connect, JSONCodec, type NatsConnection } from 'nats';
import { AppModule } from '../src/app.module';
import { type Config, configSchema } from '../src/config';

const json = JSONCodec<unknown>();

export type Replica = TestService<Config>;

export const newNamespace = () => testNamespace('mon');

/**
 * Quick settings for tests, and a fence: whatever a test does, the monitor pings only loopback
 * and the benchmarking block (198.18.0.0/15) that the network namespaces of these tests use.
 */
export const testMonitorEnv = {
  MONITOR_INTERVAL_MS: '1000',
  MONITOR_PING_TIMEOUT_MS: '400',
  MONITOR_PING_RETRIES: '1',
  MONITOR_PACKET_GAP_MS: '0.2',
  MONITOR_MEMBER_TTL_MS: '3000',
  MONITOR_CHECK_WAIT_MS: '15000',
  MONITOR_ALLOWED_NETWORKS: '127.0.0.0/8,198.18.0.0/15',
};

/** One monitor replica in this process, in the given namespace (the same one = the same cluster). */
export function startReplica(namespace: string, env: Record<string, string> = {}): Promise<Replica> {
  return startTestService({
    service: 'monitor',
    schema: configSchema,
    module: AppModule.forRoot,
    namespace,
    env: { ...testMonitorEnv, ...env },
  });
}

export function httpBase(replica: Replica): string {
  const { port } = replica.app.getHttpServer().address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

/** Waits until `check` passes (it throws until then), polling every 50 ms. */
export async function eventually<T>(check: () => T | Promise<T>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/** Waits until every replica has joined (each has loaded the list and renewed its membership). */
export async function joined(...replicas: Replica[]): Promise<void> {
  await eventually(async () => {
    for (const r of replicas) {
      const res = await fetch(`${httpBase(r)}/readyz`);
      if (res.status !== 200) throw new Error(`replica not ready: ${await res.text()}`);
    }
  });
  // Readiness comes with the list; membership is written right after it.
  await new Promise((resolve) => setTimeout(resolve, 200));
}

/**
 * Stands in for inventory's `inventory.equipment.targets` (Nest's request/reply format, pages by
 * id like the real one) and publishes equipment changes on the real stream.
 */
export class FakeInventory {
  targets: MonitorTarget[] = [];
  pagesServed = 0;

  private constructor(
    private readonly nc: NatsConnection,
    private readonly jetstream: JetStreamConnection,
  ) {}

  static async start(namespace: string): Promise<FakeInventory> {
    const nc = await connect({ servers: testNatsUrl, name: 'fake-inventory' });
    const jetstream = await JetStreamConnection.connect({
      namespace,
      servers: testNatsUrl,
      name: 'fake-inventory-js',
      timeoutMs: 5000,
    });
    const fake = new FakeInventory(nc, jetstream);
    nc.subscribe(namespacedSubject(namespace, patterns.inventory.listTargets), {
      callback: (_error, msg) => {
        const { id, data } = json.decode(msg.data) as { id: string; data: TargetsPageRequest };
        const limit = data.limit ?? 500;
        const sorted = [...fake.targets].sort((a, b) => a.equipmentId.localeCompare(b.equipmentId));
        const items = sorted.filter((t) => !data.after || t.equipmentId > data.after).slice(0, limit);
        const nextCursor = items.length === limit ? items[items.length - 1].equipmentId : null;
        fake.pagesServed++;
        msg.respond(json.encode({ id, response: { items, nextCursor }, isDisposed: true }));
      },
    });
    return fake;
  }

  add(ipAddress: string, over: Partial<MonitorTarget> = {}): MonitorTarget {
    const target: MonitorTarget = { equipmentId: randomUUID(), ipAddress, status: 'active', ...over };
    this.targets.push(target);
    return target;
  }

  /** Changes the list and publishes the change event, as inventory's outbox does. */
  async change(
    kind: EquipmentChangedEvent['kind'],
    equipmentId: string,
    ipAddress: string | null,
  ): Promise<void> {
    const previous = this.targets.find((t) => t.equipmentId === equipmentId);
    this.targets = this.targets.filter((t) => t.equipmentId !== equipmentId);
    if (kind !== 'deleted' && ipAddress) this.targets.push({ equipmentId, ipAddress, status: 'active' });
    const event: EquipmentChangedEvent = {
      eventId: randomUUID(),
      kind,
      equipmentId,
      ipAddress: kind === 'deleted' ? null : ipAddress,
      previousIpAddress: previous?.ipAddress ?? null,
      changedAt: new Date().toISOString(),
    };
    await this.jetstream.publish(events.equipmentChanged, event, { msgId: event.eventId });
  }

  async close(): Promise<void> {
    await this.jetstream.close();
    await this.nc.drain();
  }
}

/**
 * Every status event the replicas publish, as sent (a plain subscription sees each publish,
 * also those the stream drops as duplicates), so a test can count them per sweep.
 */
export class StatusEvents {
  readonly all: StatusEvent[] = [];

  private constructor(private readonly nc: NatsConnection) {}

  static async listen(namespace: string): Promise<StatusEvents> {
    const nc = await connect({ servers: testNatsUrl, name: 'status-listener' });
    const sut = new StatusEvents(nc);
    nc.subscribe(namespacedSubject(namespace, events.statusChecked), {
      callback: (_error, msg) => sut.all.push(statusEventSchema.parse(json.decode(msg.data))),
    });
    await nc.flush();
    return sut;
  }

  /** Sweep ids in the order their first event arrived. */
  sweeps(): string[] {
    return [...new Set(this.all.map((e) => e.sweepId))];
  }

  of(sweepId: string): StatusEvent[] {
    return this.all.filter((e) => e.sweepId === sweepId);
  }

  /** How many events each equipment got in one sweep. */
  countsIn(sweepId: string): Map<string, number> {
    const counts = new Map<string, number>();
    for (const e of this.of(sweepId)) counts.set(e.equipmentId, (counts.get(e.equipmentId) ?? 0) + 1);
    return counts;
  }

  latestFor(equipmentId: string): StatusEvent | undefined {
    return this.all.filter((e) => e.equipmentId === equipmentId).at(-1);
  }

  async close(): Promise<void> {
    await this.nc.drain();
  }
}

/** Removes what a test namespace left on NATS: its streams and the monitor's KV buckets. */
export async function dropNamespace(namespace: string): Promise<void> {
  await deleteNamespaceStreams(namespace, testNatsUrl);
  const nc = await connect({ servers: testNatsUrl, name: 'cleanup' });
  try {
    const jsm = await nc.jetstreamManager();
    for (const bucket of Object.values(kvBuckets)) {
      await jsm.streams.delete(`KV_${namespacedName(namespace, bucket)}`).catch(() => undefined);
    }
  } finally {
    await nc.close();
  }
}

const run = (...args: string[]) => execFileSync('ip', args, { stdio: 'pipe' });

/**
 * A network namespace joined to this one by a veth pair, so tests have hosts that answer and
 * addresses that stay silent, all inside this machine:
 * - `answering`: addresses of the far end (198.18.N.2–5);
 * - `unowned`: on the link but nobody's (198.18.N.6–9): no ARP answer, no reply;
 * - `routed`: 198.19.N.0/24, routed to the far end, which owns none of it and does not forward.
 */
export class NetnsLab {
  readonly answering: string[];
  readonly unowned: string[];
  readonly routedPrefix: string;

  private constructor(
    private readonly ns: string,
    readonly subnet: number,
  ) {
    this.answering = [2, 3, 4, 5].map((d) => `198.18.${subnet}.${d}`);
    this.unowned = [6, 7, 8, 9].map((d) => `198.18.${subnet}.${d}`);
    this.routedPrefix = `198.19.${subnet}`;
  }

  /** The range `198.18.N.4-7`: two answering addresses, then two silent ones. */
  get straddlingRange(): string {
    return `198.18.${this.subnet}.4-7`;
  }

  static create(): NetnsLab {
    const tag = randomBytes(3).toString('hex');
    const subnet = randomInt(1, 255);
    const lab = new NetnsLab(`cmt-${tag}`, subnet);
    const host = `cmh${tag}`;
    const peer = `cmp${tag}`;
    const inNs = (...args: string[]) => run('netns', 'exec', lab.ns, 'ip', ...args);
    run('netns', 'add', lab.ns);
    try {
      run('link', 'add', host, 'type', 'veth', 'peer', 'name', peer);
      run('link', 'set', peer, 'netns', lab.ns);
      run('addr', 'add', `198.18.${subnet}.1/24`, 'dev', host);
      run('link', 'set', host, 'up');
      for (const address of lab.answering) inNs('addr', 'add', `${address}/24`, 'dev', peer);
      inNs('link', 'set', peer, 'up');
      inNs('link', 'set', 'lo', 'up');
      run('route', 'add', `${lab.routedPrefix}.0/24`, 'via', `198.18.${subnet}.2`, 'dev', host);
    } catch (error) {
      lab.destroy();
      throw error;
    }
    return lab;
  }

  /** Deleting the namespace deletes the veth pair, its addresses and the route with it. */
  destroy(): void {
    try {
      run('netns', 'del', this.ns);
    } catch {
      // Already gone.
    }
  }
}
