import { ErrorCode, kvBuckets, messages, namespacedName } from '@cm/contracts';
import { type CoreConfig, type HttpPortConfig } from '@cm/platform';
import {
  dropNamespaceSchemas,
  eventually,
  serviceFromSource,
  startTestService,
  testNatsUrl,
  type TestService,
} from '@cm/platform/testing';
import { connect, JSONCodec, type NatsConnection } from 'nats';
import { dropNamespace, joined, newNamespace, type Replica, startReplica } from './support';

type ServiceConfig = CoreConfig & HttpPortConfig;

/** The real inventory, from its source. */
const startInventory = (namespace: string): Promise<TestService<ServiceConfig>> =>
  startTestService({ ...serviceFromSource('inventory'), namespace });

const json = JSONCodec<unknown>();

/**
 * NATS losing its store (a single-node NATS restarted empty, a wiped volume) takes the monitor's
 * KV bucket with it; the running state must come back from inventory's PostgreSQL, not read as
 * stopped. Real inventory, PostgreSQL and NATS.
 */
describe('monitoring state after NATS lost its store', () => {
  const namespace = newNamespace();
  const bucket = `KV_${namespacedName(namespace, kvBuckets.monitor)}`;
  let inventory: TestService<ServiceConfig> | undefined;
  let nc: NatsConnection;
  let sut: Replica;

  const status = () => sut.rpc.send(messages.monitor.status);
  const lastSweep = async () => {
    const kv = await nc.jetstream().views.kv(namespacedName(namespace, kvBuckets.monitor));
    const entry = await kv.get('lastSweep');
    return entry?.operation === 'PUT' ? (json.decode(entry.value) as { firedAt: number }) : null;
  };

  beforeAll(async () => {
    inventory = await startInventory(namespace);
    nc = await connect({ servers: testNatsUrl, name: 'monitoring-restore' });
    sut = await startReplica(namespace);
    await joined(sut);
  });

  afterAll(async () => {
    await sut?.close();
    await inventory?.close();
    await nc?.close();
    await dropNamespace(namespace);
    await dropNamespaceSchemas(namespace);
  });

  it('runs again, at the interval it was started with, after a restart finds the bucket gone', async () => {
    expect(await sut.rpc.send(messages.monitor.start)).toEqual({ isRunning: true, interval: 1000 });
    await sut.close();
    await (await nc.jetstreamManager()).streams.delete(bucket);

    // Its own setting differs: the interval comes back from what was started.
    sut = await startReplica(namespace, { MONITOR_INTERVAL_MS: '2000' });
    await joined(sut);

    await eventually(async () => expect(await status()).toEqual({ isRunning: true, interval: 1000 }), 60_000);
    // The bucket came back without a last sweep: one recorded now is a scheduled sweep fired again.
    await eventually(async () => expect(await lastSweep()).not.toBeNull(), 60_000);
  });

  it('stays stopped, with its interval, when the entry is lost while the leader runs', async () => {
    expect(await sut.rpc.send(messages.monitor.stop)).toEqual({ isRunning: false, interval: 1000 });
    const kv = await nc.jetstream().views.kv(namespacedName(namespace, kvBuckets.monitor));
    await kv.purge('state');

    await eventually(async () => {
      const entry = await kv.get('state');
      expect(entry?.operation === 'PUT' ? json.decode(entry.value) : null).toEqual({
        isRunning: false,
        interval: 1000,
      });
    }, 60_000);
    expect(await status()).toEqual({ isRunning: false, interval: 1000 });
    expect(await inventory!.rpc.send(messages.inventory.getMonitoringState)).toEqual({
      isRunning: false,
      interval: 1000,
      changedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
  });

  it('refuses Start while inventory cannot keep it, saying why, and stays stopped', async () => {
    await inventory!.close();
    inventory = undefined;

    await expect(sut.rpc.send(messages.monitor.start)).rejects.toMatchObject({
      code: ErrorCode.SERVICE_UNAVAILABLE,
      message:
        'Monitoring was not started: the inventory service keeps this setting and could not save it. The inventory service is unavailable. Try again shortly.',
    });
    expect(await status()).toEqual({ isRunning: false, interval: 1000 });
  });
});
