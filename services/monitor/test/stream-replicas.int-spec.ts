import { kvBuckets, namespacedName, streamsOf } from '@cm/contracts';
import { testNatsUrl } from '@cm/platform/testing';
import { connect } from 'nats';
import { dropNamespace, newNamespace, startReplica } from './support';

/** The replica count of every stream and KV bucket of the monitor's in a namespace, by stream name. */
async function replicaCounts(namespace: string): Promise<Record<string, number>> {
  const nc = await connect({ servers: testNatsUrl, name: 'replica-counts' });
  try {
    const jsm = await nc.jetstreamManager();
    const names = [
      ...streamsOf('monitor').map((s) => namespacedName(namespace, s.name)),
      ...Object.values(kvBuckets).map((b) => `KV_${namespacedName(namespace, b)}`),
    ];
    const counts: Record<string, number> = {};
    for (const name of names) counts[name] = (await jsm.streams.info(name)).config.num_replicas;
    return counts;
  } finally {
    await nc.close();
  }
}

/* The local NATS is a single server: it can keep one copy of each stream, never three. */
describe('NATS_STREAM_REPLICAS', () => {
  const namespaces: string[] = [];
  const namespace = () => {
    const ns = newNamespace();
    namespaces.push(ns);
    return ns;
  };
  afterAll(async () => {
    for (const ns of namespaces) await dropNamespace(ns);
  });

  it('creates every stream and KV bucket the monitor uses with the configured count at start', async () => {
    const ns = namespace();
    const replica = await startReplica(ns, { NATS_STREAM_REPLICAS: '1' });
    try {
      expect(await replicaCounts(ns)).toEqual({
        [`${ns}_STATUS`]: 1,
        [`${ns}_EQUIPMENT`]: 1,
        [`${ns}_LIVE`]: 1,
        [`${ns}_HEALTH`]: 1,
        [`KV_${ns}_monitor`]: 1,
        [`KV_${ns}_monitor_members`]: 1,
      });
    } finally {
      await replica.close();
    }
  });

  it('refuses to start on a single server when asked for 3, saying why and what to do', async () => {
    const start = startReplica(namespace(), { NATS_STREAM_REPLICAS: '3' });
    await expect(start).rejects.toThrow(
      /NATS_STREAM_REPLICAS=3: the stream \S+ cannot be kept on 3 servers, as the NATS server is a single server, not a cluster\. Run JetStream on a cluster of at least 3 servers, or lower NATS_STREAM_REPLICAS/,
    );
  });

  it('refuses as clearly to raise the count of streams that exist with one copy', async () => {
    const ns = namespace();
    await (await startReplica(ns)).close();
    await expect(startReplica(ns, { NATS_STREAM_REPLICAS: '3' })).rejects.toThrow(
      /NATS_STREAM_REPLICAS=3: the stream \S+ cannot be kept on 3 servers, as the NATS server is a single server/,
    );
    expect(Object.values(await replicaCounts(ns))).toEqual([1, 1, 1, 1, 1, 1]);
  });
});
