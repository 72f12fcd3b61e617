import { messages } from '@cm/contracts';
import { eventually } from '@cm/platform/testing';
import { Membership } from '../src/cluster/membership';
import {
  dropNamespace,
  FakeInventory,
  holdPings,
  httpBase,
  joined,
  NetnsLab,
  newNamespace,
  type Replica,
  startReplica,
  StatusEvents,
} from './support';

const metric = async (replica: Replica, series: string): Promise<number> => {
  const text = await fetch(`${httpBase(replica)}/metrics`).then((r) => r.text());
  return Number(new RegExp(`^${series} (\\S+)$`, 'm').exec(text)?.[1] ?? 0);
};

/**
 * Several replicas of one monitor (one namespace) in this process, each with its own ping
 * session: every sweep pings each equipment once, split between them, and a replica that stops
 * in the middle of a sweep loses nothing.
 */
describe('monitor replicas', () => {
  const namespace = newNamespace();
  let lab: NetnsLab;
  let inventory: FakeInventory;
  let statuses: StatusEvents;
  const replicas: Replica[] = [];
  let equipment: string[] = [];
  // Sweeps take about a second (the silent addresses time out twice), one every 1.5 s.
  const env = { MONITOR_INTERVAL_MS: '1500' };

  /** Sweeps that started after `from` (an index into statuses.sweeps()) and have since ended. */
  const sweepsAfter = async (from: number, count: number): Promise<string[]> => {
    // A sweep has ended once the next one has started.
    await eventually(() => expect(statuses.sweeps().length).toBeGreaterThanOrEqual(from + count + 1), 30_000);
    return statuses.sweeps().slice(from, from + count);
  };

  const expectEachOnce = (sweepId: string) => {
    const counts = statuses.countsIn(sweepId);
    expect({ sweepId, equipment: [...counts.keys()].sort() }).toEqual({
      sweepId,
      equipment: [...equipment].sort(),
    });
    expect({ sweepId, counts: [...new Set(counts.values())] }).toEqual({ sweepId, counts: [1] });
  };

  beforeAll(async () => {
    lab = NetnsLab.create();
    inventory = await FakeInventory.start(namespace);
    for (let i = 0; i < 60; i++) inventory.add(`127.1.${i}.${i + 1}`);
    for (let i = 0; i < 6; i++) inventory.add(`127.2.${i}.1-8`);
    for (let i = 0; i < 6; i++) inventory.add(`${lab.routedPrefix}.${i + 1}`);
    inventory.add(lab.straddlingRange);
    equipment = inventory.targets.map((t) => t.equipmentId);
    statuses = await StatusEvents.listen(namespace);
    replicas.push(await startReplica(namespace, env), await startReplica(namespace, env));
    await joined(...replicas);
    await replicas[0].rpc.send(messages.monitor.start);
  });

  afterAll(async () => {
    for (const r of replicas) await r.close().catch(() => undefined);
    await statuses?.close();
    await inventory?.close();
    await dropNamespace(namespace);
    lab?.destroy();
  });

  it('with two replicas, pings every equipment exactly once per sweep, split between them', async () => {
    const published = await Promise.all(
      replicas.map((r) => metric(r, 'cm_monitor_status_events_published_total')),
    );
    for (const sweepId of await sweepsAfter(statuses.sweeps().length, 3)) expectEachOnce(sweepId);
    const after = await Promise.all(
      replicas.map((r) => metric(r, 'cm_monitor_status_events_published_total')),
    );
    after.forEach((n, i) => expect(n).toBeGreaterThan(published[i]));
    const leaders = await Promise.all(replicas.map((r) => metric(r, 'cm_monitor_leader')));
    expect(leaders.sort()).toEqual([0, 1]);
    expect(await Promise.all(replicas.map((r) => metric(r, 'cm_monitor_live_members')))).toEqual([2, 2]);
  });

  it('with three replicas, still exactly once per sweep, and each takes a share', async () => {
    replicas.push(await startReplica(namespace, env));
    await joined(replicas[2]);
    const from = statuses.sweeps().length + 1; // the next sweep is split three ways
    const before = await metric(replicas[2], 'cm_monitor_status_events_published_total');
    for (const sweepId of await sweepsAfter(from, 3)) expectEachOnce(sweepId);
    expect(await metric(replicas[2], 'cm_monitor_status_events_published_total')).toBeGreaterThan(before);
    // Every replica counts the members alike, whichever leads.
    expect(await Promise.all(replicas.map((r) => metric(r, 'cm_monitor_live_members')))).toEqual([3, 3, 3]);
  });

  it.each(['a replica that follows', 'the leader'])(
    'when %s stops in the middle of a sweep, that sweep and the next still cover every equipment',
    async (which) => {
      const leaders = await Promise.all(replicas.map((r) => metric(r, 'cm_monitor_leader')));
      const index = which === 'the leader' ? leaders.indexOf(1) : leaders.indexOf(0);
      const [stopping] = replicas.splice(index, 1);
      const stoppingId = stopping.app.get(Membership).memberId;
      // Its pings go unanswered from now on: once it is pinging a share, stopping cuts it short.
      const pings = holdPings(stopping);
      try {
        await eventually(() => expect(pings.held()).toBeGreaterThan(0), 30_000);
      } finally {
        // Also when no share came: a replica left running keeps jest from exiting.
        await stopping.close();
      }
      const stoppedAt = statuses.sweeps().length;

      // The replica reported its share cut short, and the others pinged it instead (a few may be
      // there twice: what it published before stopping is published again, the stream keeps one).
      const interrupted = await eventually(() => {
        const aborted = statuses.reports.filter((r) => r.memberId === stoppingId && r.aborted);
        expect(aborted).not.toEqual([]);
        return aborted.map((r) => r.sweepId);
      });
      for (const sweepId of interrupted) {
        await eventually(
          () => expect([...statuses.countsIn(sweepId).keys()].sort()).toEqual([...equipment].sort()),
          30_000,
        );
      }
      // The next sweep is split between the replicas left, each equipment once.
      await eventually(() => {
        const next = statuses.sweeps().slice(stoppedAt);
        expect(next.filter((id) => !interrupted.includes(id)).length).toBeGreaterThanOrEqual(2);
      }, 30_000);
      const [next] = statuses
        .sweeps()
        .slice(stoppedAt)
        .filter((id) => !interrupted.includes(id));
      expectEachOnce(next);
      expect(await replicas[0].rpc.send(messages.monitor.status)).toEqual({
        isRunning: true,
        interval: 1500,
      });
    },
  );
});
