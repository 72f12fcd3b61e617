import { type ProbeReading } from '@cm/contracts';
import { type DeviceProbe, type ProbeRequest, type ProbeResult } from './probe';
import { OUTSIDE_ALLOWED_NETWORKS, type PlannedProbe } from './probe-plan';
import { ProbeRegistry } from './probe-registry';
import { PROBE_GRACE_MS, ProbeRunner } from './probe-runner';

const T0 = Date.UTC(2026, 10, 27, 9, 0, 0);
const TIMEOUT_MS = 8000;

interface Call {
  request: ProbeRequest;
  answer(result?: Partial<ProbeResult>): void;
}

/** A TCP probe whose every connection the test ends, counting those open to each device. */
class HeldProbe implements DeviceProbe<'tcp'> {
  readonly type = 'tcp';
  readonly calls: Call[] = [];
  readonly open = new Map<string, number>();
  maxOpen = 0;
  maxOpenToOneDevice = 0;

  probe(request: ProbeRequest): Promise<ProbeResult> {
    const open = (this.open.get(request.address) ?? 0) + 1;
    this.open.set(request.address, open);
    this.maxOpenToOneDevice = Math.max(this.maxOpenToOneDevice, open);
    this.maxOpen = Math.max(this.maxOpen, this.pending);
    return new Promise((resolve) => {
      this.calls.push({
        request,
        answer: (result) => {
          this.open.set(request.address, this.open.get(request.address)! - 1);
          resolve({ outcome: 'answered', findings: [], durationMs: 5, ...result });
        },
      });
    });
  }

  get pending(): number {
    return [...this.open.values()].reduce((a, b) => a + b, 0);
  }

  /** Answers the probes still open, oldest first. */
  answerAll(): void {
    for (const call of this.calls.splice(0)) call.answer();
  }
}

let ids = 0;
/** Ids of their own for each target, the same on every run: the schedule places targets by id. */
const nextId = () => `00000000-0000-4000-8000-${String(++ids).padStart(12, '0')}`;

function plan(address: string, over: Partial<PlannedProbe> = {}): PlannedProbe {
  const equipmentId = nextId();
  return {
    target: { equipmentId, address, probe: { type: 'tcp', intervalSeconds: 10 }, secrets: {} },
    device: address,
    port: 41794,
    intervalMs: 10_000,
    ...over,
  };
}

describe(ProbeRunner.name, () => {
  let probe: HeldProbe;
  let readings: ProbeReading[];
  let sut: ProbeRunner;
  const start = (concurrency = 64, timeoutMs = TIMEOUT_MS) => {
    sut = new ProbeRunner({
      registry: new ProbeRegistry([probe]),
      concurrency,
      timeoutMs,
      publish: (reading) => readings.push(reading),
    });
    sut.setOwnership(() => true);
  };
  /** Lets the clock run `ms`, settling what the probes' answers set off. */
  const pass = (ms: number) => jest.advanceTimersByTimeAsync(ms);
  /** Lets the clock run until `n` probes have started (their slots fall anywhere in the interval). */
  const untilStarted = async (n: number) => {
    for (let waited = 0; probe.calls.length < n && waited <= 10_000; waited += 10) await pass(10);
    expect(probe.calls).toHaveLength(n);
  };

  beforeEach(() => {
    jest.useFakeTimers({ now: T0 });
    probe = new HeldProbe();
    readings = [];
  });

  afterEach(async () => {
    probe.answerAll();
    await sut.stop();
    jest.useRealTimers();
  });

  it('runs no more probes at once than its concurrency, and gets to every device', async () => {
    start(3, 60_000);
    sut.sync(Array.from({ length: 10 }, (_, i) => plan(`10.0.0.${i + 1}`)));
    sut.setActive(true);

    // Every device is due within its first interval.
    await pass(10_000);
    expect(probe.pending).toBe(3);
    for (let call = probe.calls.shift(); call; call = probe.calls.shift()) {
      call.answer();
      await pass(0);
    }

    expect(probe.maxOpen).toBe(3);
    expect(new Set(readings.map((r) => r.equipmentId)).size).toBe(10);
  });

  it('publishes what the probe read, with the equipment, the probe type and the time', async () => {
    start();
    const target = plan('10.0.0.1');
    sut.sync([target]);
    sut.setActive(true);
    await untilStarted(1);

    probe.calls[0].answer({ durationMs: 12 });
    await pass(0);

    expect(probe.calls[0].request).toMatchObject({ address: '10.0.0.1', port: 41794, timeoutMs: TIMEOUT_MS });
    expect(readings).toEqual([
      {
        equipmentId: target.target.equipmentId,
        probeType: 'tcp',
        checkedAt: expect.any(String),
        outcome: 'answered',
        findings: [],
        durationMs: 12,
      },
    ]);
    expect(Date.parse(readings[0].checkedAt)).toBeGreaterThanOrEqual(T0);
  });

  it('probes a device again each interval, and never while its previous probe is in flight', async () => {
    start();
    sut.sync([plan('10.0.0.1')]);
    sut.setActive(true);
    await untilStarted(1);

    // The probe hangs on past the next slot: the device is left alone meanwhile.
    await pass(TIMEOUT_MS + PROBE_GRACE_MS + 20_000);
    expect(probe.calls).toHaveLength(1);
    expect(readings.map((r) => r.detail)).toEqual(['No answer within 8 s']);

    probe.calls[0].answer();
    await pass(10_000);
    expect(probe.calls).toHaveLength(2);
    expect(probe.maxOpenToOneDevice).toBe(1);
  });

  it('gives a probe that overruns its timeout up its slot, and reads the device as unreachable', async () => {
    start(1);
    const targets = [plan('10.0.0.1'), plan('10.0.0.2')];
    sut.sync(targets);
    sut.setActive(true);
    await untilStarted(1);
    const stuck = targets.find((t) => t.device === probe.calls[0].request.address)!;
    const other = targets.find((t) => t !== stuck)!;

    await pass(TIMEOUT_MS + PROBE_GRACE_MS);

    expect(readings).toEqual([
      expect.objectContaining({
        equipmentId: stuck.target.equipmentId,
        outcome: 'unreachable',
        detail: 'No answer within 8 s',
      }),
    ]);
    expect(probe.calls.map((c) => c.request.address)).toEqual([stuck.device, other.device]);
    expect(probe.calls[0].request.signal?.aborted).toBe(true);
  });

  it('cancels a probe whose settings changed, and probes with the new ones once it has ended', async () => {
    start();
    const before = plan('10.0.0.1');
    sut.sync([before]);
    sut.setActive(true);
    await untilStarted(1);

    sut.sync([{ ...before, target: { ...before.target, secrets: { password: 'new' } } }]);
    await pass(0);
    expect(probe.calls[0].request.signal?.aborted).toBe(true);
    expect(probe.calls).toHaveLength(1);

    probe.calls[0].answer({ outcome: 'auth-failed' });
    await pass(0);
    expect(probe.calls).toHaveLength(2);
    expect(probe.calls[1].request.secrets).toEqual({ password: 'new' });
    probe.calls[1].answer();
    await pass(0);

    expect(readings.map((r) => r.outcome)).toEqual(['answered']);
    expect(probe.maxOpenToOneDevice).toBe(1);
  });

  it('probes nothing while inactive, and drops what was under way when it stops', async () => {
    start();
    sut.sync([plan('10.0.0.1'), plan('10.0.0.2')]);
    await pass(60_000);
    expect(probe.calls).toEqual([]);

    sut.setActive(true);
    await untilStarted(2);
    sut.setActive(false);
    probe.answerAll();
    await pass(60_000);

    expect(probe.calls).toEqual([]);
    expect(readings).toEqual([]);
  });

  it('leaves the devices another replica owns, and cancels those it hands over', async () => {
    start(64, 60_000);
    sut.sync([plan('10.0.0.1'), plan('10.0.0.2')]);
    sut.setOwnership((p) => p.device === '10.0.0.1');
    sut.setActive(true);
    await untilStarted(1);
    await pass(10_000);
    expect(probe.calls.map((c) => c.request.address)).toEqual(['10.0.0.1']);

    sut.setOwnership(() => false);
    expect(probe.calls[0].request.signal?.aborted).toBe(true);
    probe.answerAll();
    await pass(60_000);

    expect(readings).toEqual([]);
  });

  it('reads a device outside the allowed networks as unreachable without connecting to it', async () => {
    start();
    const outside = plan('192.0.2.1', { refused: OUTSIDE_ALLOWED_NETWORKS });
    sut.sync([outside]);
    sut.setActive(true);
    await pass(10_000);

    expect(probe.calls).toEqual([]);
    expect(readings).toEqual([
      expect.objectContaining({
        outcome: 'unreachable',
        detail: "Address outside the monitor's allowed networks",
      }),
    ]);
  });

  describe('a probe now, outside the schedule (a room check)', () => {
    it('joins the scheduled probe of the equipment in flight: one connection, one result for both', async () => {
      start();
      const target = plan('10.0.0.1');
      sut.sync([target]);
      sut.setActive(true);
      await untilStarted(1);

      const now = sut.probeNow(target, 1500);
      await pass(0);
      expect(probe.calls).toHaveLength(1);
      probe.calls[0].answer({ durationMs: 7 });

      expect(await now).toMatchObject({ outcome: 'answered', durationMs: 7 });
      expect(probe.maxOpenToOneDevice).toBe(1);
    });

    it('holds the schedule off the device while it runs: a probe due meanwhile waits for it', async () => {
      start();
      const target = plan('10.0.0.1');
      sut.sync([target]);
      const now = sut.probeNow(target, 60_000);
      await pass(0);
      expect(probe.calls).toHaveLength(1);

      sut.setActive(true);
      // The whole interval passes: the target fell due, and waited.
      await pass(10_000);
      expect(probe.calls).toHaveLength(1);

      probe.calls.shift()!.answer();
      expect(await now).toMatchObject({ outcome: 'answered' });
      // Free again: the schedule's probe of it starts now.
      await pass(0);
      expect(probe.calls).toHaveLength(1);
      expect(probe.maxOpenToOneDevice).toBe(1);
    });

    it('waits out a probe of another equipment record of the same device, then probes', async () => {
      start();
      const scheduled = plan('10.0.0.1');
      const other = plan('10.0.0.1');
      sut.sync([scheduled]);
      sut.setActive(true);
      await untilStarted(1);

      const now = sut.probeNow(other, 1500);
      await pass(0);
      expect(probe.calls).toHaveLength(1);
      probe.calls.shift()!.answer();
      await pass(0);
      expect(probe.calls).toHaveLength(1);
      probe.calls.shift()!.answer({ durationMs: 3 });

      expect(await now).toMatchObject({ outcome: 'answered', durationMs: 3 });
      expect(probe.maxOpenToOneDevice).toBe(1);
    });

    it('joins another probe now of the same equipment rather than open a second connection', async () => {
      start();
      const target = plan('10.0.0.1');
      sut.sync([target]);
      const first = sut.probeNow(target, 1500);
      const second = sut.probeNow(target, 1500);
      await pass(0);
      expect(probe.calls).toHaveLength(1);
      probe.calls.shift()!.answer();
      expect(await second).toEqual(await first);
    });
  });
});
