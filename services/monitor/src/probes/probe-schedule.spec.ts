import { randomUUID } from 'node:crypto';
import { type ProbeTarget } from '@cm/contracts';
import { type PlannedProbe } from './probe-plan';
import { ProbeSchedule, type StartedProbe } from './probe-schedule';

const T0 = Date.UTC(2026, 10, 27, 9, 0, 0);
const everyone = () => true;

function plan(
  over: { id?: string; address?: string; intervalSeconds?: number; port?: number } = {},
): PlannedProbe {
  const address = over.address ?? '10.0.0.1';
  const target: ProbeTarget = {
    equipmentId: over.id ?? randomUUID(),
    address,
    probe: { type: 'tcp', port: over.port ?? 41794, intervalSeconds: over.intervalSeconds ?? 300 },
    secrets: {},
  };
  return {
    target,
    device: address,
    port: over.port ?? 41794,
    intervalMs: (over.intervalSeconds ?? 300) * 1000,
  };
}

/** Starts and at once finishes every probe due up to `until`, a second at a time: when each was due. */
function runUntil(sut: ProbeSchedule, from: number, until: number, stepMs = 1000): Map<string, number[]> {
  const starts = new Map<string, number[]>();
  for (let now = from; now <= until; now += stepMs) {
    for (const probe of sut.take(now, Infinity, everyone)) {
      starts.set(probe.equipmentId, [...(starts.get(probe.equipmentId) ?? []), probe.dueAt]);
      sut.finish(probe);
    }
  }
  return starts;
}

describe(ProbeSchedule.name, () => {
  it('spreads the first probes of 10,000 devices evenly over their interval', () => {
    const sut = new ProbeSchedule();
    const plans = Array.from({ length: 10_000 }, (_, i) => plan({ address: `10.1.${i >> 8}.${i & 255}` }));
    sut.sync(plans, T0);

    const starts = runUntil(sut, T0, T0 + 300_000);

    expect(starts.size).toBe(10_000);
    const perMinute = [0, 0, 0, 0, 0];
    for (const [at] of starts.values()) perMinute[Math.floor((at - T0) / 60_000)]++;
    // 2,000 a minute if perfectly even; a burst would put thousands in one minute.
    for (const n of perMinute) expect(n).toBeGreaterThan(1800);
    for (const n of perMinute) expect(n).toBeLessThan(2200);
  });

  it('probes a device once per interval, keeping its place in the interval', () => {
    const sut = new ProbeSchedule();
    const id = randomUUID();
    sut.sync([plan({ id, intervalSeconds: 60 })], T0);

    const starts = runUntil(sut, T0, T0 + 10 * 60_000).get(id)!;

    expect(starts.length).toBeGreaterThanOrEqual(10);
    expect(starts.length).toBeLessThanOrEqual(11);
    for (let i = 1; i < starts.length; i++) expect(starts[i] - starts[i - 1]).toBe(60_000);
  });

  it('after a late start, probes again no sooner than half an interval later, back in its place', () => {
    const sut = new ProbeSchedule();
    const id = randomUUID();
    sut.sync([plan({ id, intervalSeconds: 60 })], T0);
    const due = sut.nextDueAt()!;

    // Started 40 s late (every slot was busy): its next slot, 20 s on, is too soon.
    const [late] = sut.take(due + 40_000, 1, everyone);
    sut.finish(late);

    expect(sut.nextDueAt()).toBe(due + 120_000);
  });

  it('never starts two probes to one device, and starts the one that waited as soon as it is free', () => {
    const sut = new ProbeSchedule();
    const display = plan({ address: '10.0.0.7', intervalSeconds: 10 });
    const sameDevice = plan({ address: '10.0.0.7', intervalSeconds: 10, port: 80 });
    sut.sync([display, sameDevice], T0);
    const end = T0 + 10_000;

    const first = sut.take(end, Infinity, everyone);
    expect(first).toHaveLength(1);
    expect(sut.take(end, Infinity, everyone)).toEqual([]);

    sut.finish(first[0]);
    const second = sut.take(end, Infinity, everyone);
    expect(second.map((p) => p.equipmentId)).toEqual(
      [display, sameDevice].map((p) => p.target.equipmentId).filter((id) => id !== first[0].equipmentId),
    );
  });

  it('does not start a device again while its probe is in flight, even when it is due again', () => {
    const sut = new ProbeSchedule();
    sut.sync([plan({ intervalSeconds: 10 })], T0);
    const [inFlight] = sut.take(T0 + 10_000, 1, everyone);

    expect(sut.take(T0 + 60_000, Infinity, everyone)).toEqual([]);
    sut.finish(inFlight);
    expect(sut.take(T0 + 60_000, Infinity, everyone)).toHaveLength(1);
  });

  it('starts no more than it is given room for, earliest first', () => {
    const sut = new ProbeSchedule();
    sut.sync(
      Array.from({ length: 50 }, (_, i) => plan({ address: `10.0.1.${i + 1}`, intervalSeconds: 10 })),
      T0,
    );

    const started = sut.take(T0 + 10_000, 20, everyone);

    expect(started).toHaveLength(20);
    const dues = started.map((p) => p.dueAt);
    expect(dues).toEqual([...dues].sort((a, b) => a - b));
    expect(sut.take(T0 + 10_000, Infinity, everyone)).toHaveLength(30);
  });

  it('probes a device added or changed after the first load at once, and says which changed or went', () => {
    const sut = new ProbeSchedule();
    const kept = plan();
    const edited = plan({ address: '10.0.0.2' });
    const gone = plan({ address: '10.0.0.3' });
    sut.sync([kept, edited, gone], T0);
    const added = plan({ address: '10.0.0.4' });
    const now = T0 + 1000;
    const editedNow: PlannedProbe = {
      ...edited,
      target: { ...edited.target, secrets: { password: 'new' } },
    };

    expect(sut.sync([kept, editedNow, added], now)).toEqual({
      changed: [edited.target.equipmentId],
      removed: [gone.target.equipmentId],
    });
    const started = sut.take(now, Infinity, everyone);
    expect(started.map((p) => p.equipmentId).sort()).toEqual(
      [edited.target.equipmentId, added.target.equipmentId].sort(),
    );
    expect(started.find((p) => p.equipmentId === edited.target.equipmentId)?.plan.target.secrets).toEqual({
      password: 'new',
    });
  });

  it('lets the slots of devices another replica owns pass, and probes them once they are its own', () => {
    const sut = new ProbeSchedule();
    const mine = plan({ address: '10.0.0.1', intervalSeconds: 60 });
    const theirs = plan({ address: '10.0.0.2', intervalSeconds: 60 });
    sut.sync([mine, theirs], T0);
    let owned = new Set(['10.0.0.1']);
    const owns = (p: PlannedProbe) => owned.has(p.device);
    const started: StartedProbe[] = [];
    const step = (from: number, to: number) => {
      for (let now = from; now < to; now += 1000) {
        for (const p of sut.take(now, Infinity, owns)) {
          started.push(p);
          sut.finish(p);
        }
      }
    };

    step(T0, T0 + 60_000);
    expect(started.map((p) => p.plan.device)).toEqual(['10.0.0.1']);

    owned = new Set(['10.0.0.1', '10.0.0.2']);
    step(T0 + 60_000, T0 + 120_000);
    expect(started.map((p) => p.plan.device).sort()).toEqual(['10.0.0.1', '10.0.0.1', '10.0.0.2']);
  });

  it('after a pause spreads the devices over their interval again rather than probing all at once', () => {
    const sut = new ProbeSchedule();
    sut.sync(
      Array.from({ length: 100 }, (_, i) => plan({ address: `10.0.2.${i + 1}`, intervalSeconds: 60 })),
      T0,
    );
    const resumedAt = T0 + 3_600_000;

    sut.rephase(resumedAt);

    expect(sut.take(resumedAt, Infinity, everyone).length).toBeLessThan(10);
    expect(sut.take(resumedAt + 59_999, Infinity, everyone).length).toBeGreaterThan(90);
  });
});
