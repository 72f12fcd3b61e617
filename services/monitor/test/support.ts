import { randomUUID } from 'node:crypto';
import { type AddressInfo } from 'node:net';
import {
  type DurableMonitoringState,
  type EquipmentChangedEvent,
  type HealthReport,
  events,
  type MonitoringStateSave,
  type MonitorTarget,
  namespacedSubject,
  messages,
  type ProbeTarget,
  type TargetsPageRequest,
} from '@cm/contracts';
import { JetStreamConnection } from '@cm/platform';
import {
  eventually,
  startTestService,
  testNamespace,
  testNatsUrl,
  type TestService,
} from '@cm/platform/testing';
import { connect, JSONCodec, type NatsConnection } from 'nats';
import { AppModule } from '../src/app.module';
import { Membership } from '../src/cluster/membership';
import { type PingCallback, Pinger, PingerClosedError } from '../src/ping/pinger';
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

/** Waits until every replica has joined (each has loaded the list and is in the membership). */
export async function joined(...replicas: Replica[]): Promise<void> {
  await eventually(async () => {
    for (const r of replicas) {
      // Ready comes before the list (the list only informs readiness): wait for the list itself.
      const res = await fetch(`${httpBase(r)}/readyz`);
      const report = (await res.json()) as HealthReport;
      if (res.status !== 200 || report.checks.equipmentList?.status !== 'up')
        throw new Error(`replica has not joined: ${JSON.stringify(report)}`);
      // Membership is written after the list is loaded: the next sweep is split with it only then.
      const membership = r.app.get(Membership);
      expect(await membership.live()).toContain(membership.memberId);
    }
  });
}

/**
 * Holds every ping `replica` sends from now on, unanswered: a share of a sweep it is given cannot
 * end, so stopping it is sure to cut that share short. Closing its pinger answers the held pings
 * as the real one answers those it still waits for. `held()` is how many it holds.
 */
export function holdPings(replica: Replica): { held(): number } {
  const pinger = replica.app.get(Pinger);
  const waiting: PingCallback[] = [];
  jest.spyOn(pinger, 'pingWith').mockImplementation((_address, done) => void waiting.push(done));
  const close = pinger.close.bind(pinger);
  jest.spyOn(pinger, 'close').mockImplementation(() => {
    for (const done of waiting.splice(0)) process.nextTick(done, new PingerClosedError(), null);
    close();
  });
  return { held: () => waiting.length };
}

/**
 * Holds the pings `replica` sends to `address` from now on, as a device that has not answered
 * yet, until `release`: then each is sent for real. Pings to other addresses go at once.
 */
export function holdPingsTo(replica: Replica, address: string): { held(): number; release(): void } {
  const pinger = replica.app.get(Pinger);
  const send = pinger.pingWith.bind(pinger);
  const waiting: PingCallback[] = [];
  let holding = true;
  const spy = jest.spyOn(pinger, 'pingWith').mockImplementation((to, done) => {
    if (holding && to === address) waiting.push(done);
    else send(to, done);
  });
  return {
    held: () => waiting.length,
    release: () => {
      holding = false;
      spy.mockRestore();
      for (const done of waiting.splice(0)) send(address, done);
    },
  };
}

/** Answers a Nest request for a page by id, as inventory's lists do. */
function pageOf<T extends { equipmentId: string }>(all: T[], { after, limit = 500 }: TargetsPageRequest) {
  const sorted = [...all].sort((a, b) => a.equipmentId.localeCompare(b.equipmentId));
  const items = sorted.filter((t) => !after || t.equipmentId > after).slice(0, limit);
  return { items, nextCursor: items.length === limit ? items[items.length - 1].equipmentId : null };
}

/**
 * Stands in for inventory's `inventory.equipment.targets` and `…probe-targets` (Nest's
 * request/reply format, pages by id like the real ones) and `inventory.monitoring.*`, and
 * publishes equipment changes on the real stream. (`monitoring-restore.int-spec.ts` runs the
 * real inventory.)
 */
export class FakeInventory {
  targets: MonitorTarget[] = [];
  /** Equipment probed beyond ping, with their secrets, as `listProbeTargets` answers. */
  probeTargets: ProbeTarget[] = [];
  /** The durable monitoring state (`inventory.monitoring.*`), kept in memory here. */
  monitoringState: DurableMonitoringState | null = null;
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
    nc.subscribe(namespacedSubject(namespace, messages.inventory.listTargets.subject), {
      callback: (_error, msg) => {
        const { id, data } = json.decode(msg.data) as { id: string; data: TargetsPageRequest };
        fake.pagesServed++;
        msg.respond(json.encode({ id, response: pageOf(fake.targets, data), isDisposed: true }));
      },
    });
    nc.subscribe(namespacedSubject(namespace, messages.inventory.listProbeTargets.subject), {
      callback: (_error, msg) => {
        const { id, data } = json.decode(msg.data) as { id: string; data: TargetsPageRequest };
        msg.respond(json.encode({ id, response: pageOf(fake.probeTargets, data), isDisposed: true }));
      },
    });
    nc.subscribe(namespacedSubject(namespace, messages.inventory.getMonitoringState.subject), {
      callback: (_error, msg) => {
        const { id } = json.decode(msg.data) as { id: string };
        msg.respond(json.encode({ id, response: fake.monitoringState, isDisposed: true }));
      },
    });
    nc.subscribe(namespacedSubject(namespace, messages.inventory.saveMonitoringState.subject), {
      callback: (_error, msg) => {
        const { id, data } = json.decode(msg.data) as { id: string; data: MonitoringStateSave };
        fake.monitoringState = { ...data, changedAt: new Date().toISOString() };
        msg.respond(json.encode({ id, response: fake.monitoringState, isDisposed: true }));
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

  /**
   * Sets an equipment's probe (adding it, or replacing its settings and secrets) and publishes
   * `probeChanged`, as inventory does when someone edits them.
   */
  async setProbe(target: ProbeTarget): Promise<void> {
    this.probeTargets = [...this.probeTargets.filter((t) => t.equipmentId !== target.equipmentId), target];
    const event: EquipmentChangedEvent = {
      eventId: randomUUID(),
      kind: 'probeChanged',
      equipmentId: target.equipmentId,
      ipAddress: target.address,
      previousIpAddress: target.address,
      changedAt: new Date().toISOString(),
    };
    await this.jetstream.publish(events.equipmentChanged, event, { msgId: event.eventId });
  }

  async close(): Promise<void> {
    await this.jetstream.close();
    await this.nc.drain();
  }
}

export { NetnsLab } from '@cm/platform/testing';
export { dropNamespace, HealthReadings, RoomCheckedEvents, StatusEvents } from './nats-helpers';
