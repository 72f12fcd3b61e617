import {
  ErrorCode,
  events,
  messages,
  namespacedName,
  namespacedSubject,
  type StatusEvent,
  streams,
} from '@cm/contracts';
import { eventually, testNatsUrl } from '@cm/platform/testing';
import { connect, JSONCodec } from 'nats';
import { MonitoringState } from '../src/monitoring/monitoring-state';
import {
  dropNamespace,
  FakeInventory,
  httpBase,
  joined,
  NetnsLab,
  newNamespace,
  type Replica,
  startReplica,
  StatusEvents,
} from './support';

/** One replica, real raw ICMP to loopback and to a network namespace made here, real NATS. */
describe('monitoring', () => {
  const namespace = newNamespace();
  let lab: NetnsLab;
  let inventory: FakeInventory;
  let statuses: StatusEvents;
  let sut: Replica;
  const ids: Record<string, string> = {};

  const check = () => sut.rpc.send(messages.monitor.check, {}, { timeoutMs: 30_000 });
  const status = () => sut.rpc.send(messages.monitor.status);
  /** The events of the latest sweep, by equipment. */
  const lastSweep = () => {
    const sweepId = statuses.sweeps().at(-1)!;
    return new Map(statuses.of(sweepId).map((e): [string, StatusEvent] => [e.equipmentId, e]));
  };

  beforeAll(async () => {
    lab = NetnsLab.create();
    inventory = await FakeInventory.start(namespace);
    ids.loopback = inventory.add('127.0.0.9').equipmentId;
    ids.loopbackRange = inventory.add('127.0.4.1-20').equipmentId;
    ids.farEnd = inventory.add(lab.answering[0]).equipmentId;
    ids.routedSilent = inventory.add(`${lab.routedPrefix}.5`).equipmentId;
    ids.unowned = inventory.add(lab.unowned[3]).equipmentId;
    ids.straddling = inventory.add(lab.straddlingRange).equipmentId;
    ids.maintenance = inventory.add('127.0.0.10', { status: 'maintenance' }).equipmentId;
    // Outside MONITOR_ALLOWED_NETWORKS (TEST-NET-1): listed by inventory, never pinged.
    ids.outside = inventory.add('192.0.2.1').equipmentId;
    // Inside them but reaching a whole subnet (its broadcast address), as a row stored before
    // inventory checked addresses could: never pinged either.
    ids.broadcast = inventory.add('127.0.5.250-255').equipmentId;
    statuses = await StatusEvents.listen(namespace);
    sut = await startReplica(namespace);
    await joined(sut);
  });

  afterAll(async () => {
    await sut?.close();
    await statuses?.close();
    await inventory?.close();
    await dropNamespace(namespace);
    lab?.destroy();
  });

  it('is stopped, with the configured interval, until someone starts it', async () => {
    expect(await status()).toEqual({ isRunning: false, interval: 1000 });
  });

  it('checks every address now, answers when the sweep is over, and stays stopped', async () => {
    const result = await check();

    expect(result).toEqual({
      completed: true,
      targets: 7,
      answered: 5,
      durationMs: expect.any(Number),
      message: 'Checked 7 equipment: 5 answered',
    });
    const events = lastSweep();
    expect(events.size).toBe(7);
    expect(events.get(ids.loopback)).toEqual({
      eventId: `${ids.loopback}:${events.get(ids.loopback)!.sweepId}`,
      equipmentId: ids.loopback,
      sweepId: expect.any(String),
      status: 'active',
      checkedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      rttMs: expect.any(Number),
      results: [{ address: '127.0.0.9', alive: true, rttMs: expect.any(Number) }],
    });
    expect(events.get(ids.loopbackRange)).toMatchObject({ status: 'active' });
    expect(events.get(ids.loopbackRange)!.results.map((r) => r.address)).toEqual(
      Array.from({ length: 20 }, (_, i) => `127.0.4.${i + 1}`),
    );
    expect(events.get(ids.farEnd)).toMatchObject({ status: 'active' });
    expect(events.get(ids.routedSilent)).toMatchObject({
      status: 'inactive',
      rttMs: null,
      results: [{ address: `${lab.routedPrefix}.5`, alive: false, rttMs: null }],
    });
    expect(events.get(ids.unowned)).toMatchObject({ status: 'inactive' });
    expect(events.get(ids.straddling)).toMatchObject({ status: 'partial' });
    expect(events.get(ids.straddling)!.results.map((r) => [r.address.split('.')[3], r.alive])).toEqual([
      ['4', true],
      ['5', true],
      ['6', false],
      ['7', false],
    ]);
    // Measured and reported; inventory keeps a person's maintenance status (see its consumer).
    expect(events.get(ids.maintenance)).toMatchObject({ status: 'active' });
    expect(events.has(ids.outside)).toBe(false);
    expect(events.has(ids.broadcast)).toBe(false);
    expect(await status()).toEqual({ isRunning: false, interval: 1000 });
  });

  it('follows equipment that is created, readdressed, cleared or deleted', async () => {
    const created = '5e1f7a42-9a4b-4c1f-8d2e-3b6a1c0d9e11';
    await inventory.change('created', created, '127.0.0.11');
    await inventory.change('addressChanged', ids.routedSilent, '127.0.0.12');
    await inventory.change('deleted', ids.farEnd, null);
    await inventory.change('addressChanged', ids.unowned, null);

    await eventually(async () => {
      await check();
      const events = lastSweep();
      expect(events.get(created)).toMatchObject({ status: 'active' });
      expect(events.get(ids.routedSilent)).toMatchObject({
        status: 'active',
        results: [expect.objectContaining({ address: '127.0.0.12' })],
      });
      expect(events.has(ids.farEnd)).toBe(false);
      expect(events.has(ids.unowned)).toBe(false);
      expect(events.size).toBe(6);
    });
  });

  it('serves Prometheus metrics of its sweeps, pings and events', async () => {
    const res = await fetch(`${httpBase(sut)}/metrics`);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain;.*version=0\.0\.4/);
    const text = await res.text();
    const value = (series: string) =>
      Number(new RegExp(`^${series.replace(/[{}"]/g, '\\$&')} (\\S+)$`, 'm').exec(text)?.[1]);
    expect(value('cm_monitor_sweeps_total{outcome="complete",reason="check"}')).toBeGreaterThanOrEqual(2);
    expect(value('cm_monitor_pings_total{result="answered"}')).toBeGreaterThan(0);
    expect(value('cm_monitor_pings_total{result="unanswered"}')).toBeGreaterThan(0);
    expect(value('cm_monitor_status_events_published_total')).toBe(statuses.all.length);
    expect(value('cm_monitor_sweep_duration_seconds_count')).toBeGreaterThanOrEqual(2);
    expect(value('cm_monitor_targets')).toBe(6);
    expect(value('cm_monitor_leader')).toBe(1);
  });

  it('sweeps every interval once started, and keeps running and stopped across restarts', async () => {
    expect(await sut.rpc.send(messages.monitor.start)).toEqual({
      isRunning: true,
      interval: 1000,
    });
    const before = statuses.sweeps().length;
    await eventually(() => expect(statuses.sweeps().length).toBeGreaterThanOrEqual(before + 3));

    // A new process in the same namespace: the state and the schedule come from NATS.
    await sut.close();
    sut = await startReplica(namespace);
    expect(await status()).toEqual({ isRunning: true, interval: 1000 });
    const afterRestart = statuses.sweeps().length;
    await eventually(() => expect(statuses.sweeps().length).toBeGreaterThanOrEqual(afterRestart + 2));

    expect(await sut.rpc.send(messages.monitor.stop)).toEqual({
      isRunning: false,
      interval: 1000,
    });
    // The sweep fired last may still be under way: every result of it arrives before counting
    // (as many as in a whole sweep before it; sweeps never overlap).
    const whole = statuses.countsIn(statuses.sweeps()[afterRestart]).size;
    const fired = await sut.app.get(MonitoringState).lastSweep();
    await eventually(() => expect(statuses.countsIn(fired!.sweepId).size).toBe(whole), 30_000);
    const stoppedAt = statuses.sweeps().length;
    await sut.close();
    sut = await startReplica(namespace);
    await joined(sut);
    expect(await status()).toEqual({ isRunning: false, interval: 1000 });
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(statuses.sweeps().length).toBe(stoppedAt);
  });

  it('announces Start and Stop to open screens on the live stream before it answers', async () => {
    const nc = await connect({ servers: testNatsUrl, name: 'live-reader' });
    try {
      const jsm = await nc.jetstreamManager();
      const announced = async () => {
        const msg = await jsm.streams.getMessage(namespacedName(namespace, streams.live.name), {
          last_by_subj: namespacedSubject(namespace, events.liveMonitoringState),
        });
        return JSONCodec().decode(msg.data);
      };
      expect(await sut.rpc.send(messages.monitor.start)).toEqual(await announced());
      expect(await announced()).toEqual({ isRunning: true, interval: 1000 });
      await sut.rpc.send(messages.monitor.stop);
      expect(await announced()).toEqual({ isRunning: false, interval: 1000 });
    } finally {
      await nc.close();
    }
  });

  it('answers a check that cannot finish in time with MONITOR.CHECK_INCOMPLETE, and the check goes on', async () => {
    await sut.close();
    sut = await startReplica(namespace, { MONITOR_CHECK_WAIT_MS: '1000', MONITOR_PING_TIMEOUT_MS: '1500' });
    await joined(sut);
    inventory.add(`${lab.routedPrefix}.77`);
    await inventory.change('created', inventory.targets.at(-1)!.equipmentId, `${lab.routedPrefix}.77`);
    await eventually(async () =>
      expect(await fetch(`${httpBase(sut)}/metrics`).then((r) => r.text())).toMatch(
        /^cm_monitor_targets 7$/m,
      ),
    );

    const sweepsBefore = statuses.sweeps().length;
    await expect(check()).rejects.toMatchObject({
      code: ErrorCode.CHECK_INCOMPLETE,
      message: expect.stringMatching(/did not finish within 1 s\. It goes on/),
    });
    // Its results still arrive: the silent address after its timeout and one retry.
    await eventually(() => {
      expect(statuses.sweeps().length).toBe(sweepsBefore + 1);
      expect(lastSweep().size).toBe(7);
    });
  });

  it('says so when a sweep outlasts the interval, and starts the next one late rather than overlap it', async () => {
    // Still the replica whose silent address takes 2 × 1.5 s: every sweep outlasts the 1 s interval.
    const metric = async (series: string) => {
      const text = await fetch(`${httpBase(sut)}/metrics`).then((r) => r.text());
      return Number(new RegExp(`^${series} (\\S+)$`, 'm').exec(text)?.[1] ?? 0);
    };
    await sut.rpc.send(messages.monitor.start);
    try {
      await eventually(async () =>
        expect(await metric('cm_monitor_sweep_overruns_total')).toBeGreaterThanOrEqual(1),
      );
      expect(await metric('cm_monitor_sweep_interval_seconds')).toBe(1);
      // What the missing-sweep alert reads: started, and a scheduled sweep fired lately.
      expect(await metric('cm_monitor_running')).toBe(1);
      expect(Date.now() / 1000 - (await metric('cm_monitor_last_sweep_timestamp_seconds'))).toBeLessThan(60);
      const before = statuses.sweeps().length;
      await new Promise((resolve) => setTimeout(resolve, 4000));
      // At a 1 s interval, overlapping sweeps would be 4 more in 4 s; each here takes 3 s or more.
      expect(statuses.sweeps().length - before).toBeLessThanOrEqual(2);
    } finally {
      await sut.rpc.send(messages.monitor.stop);
    }
    expect(await metric('cm_monitor_running')).toBe(0);
  });
});
