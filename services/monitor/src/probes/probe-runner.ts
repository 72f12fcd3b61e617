import { type ProbeReading, type ProbeType } from '@cm/contracts';
import { Logger } from '@nestjs/common';
import { type ProbeMetrics } from '../metrics/probe-metrics';
import { type ProbeResult } from './probe';
import { type PlannedProbe } from './probe-plan';
import { type ProbeRegistry } from './probe-registry';
import { PROBE_GRACE_MS, startProbe } from './probe-once';
import { ProbeSchedule, type StartedProbe } from './probe-schedule';

export { PROBE_GRACE_MS } from './probe-once';

export interface ProbeRunnerOptions {
  registry: ProbeRegistry;
  /** Probes in flight at once (MONITOR_PROBE_CONCURRENCY). */
  concurrency: number;
  /** Each probe's own timeout (MONITOR_PROBE_TIMEOUT_MS). */
  timeoutMs: number;
  publish: (reading: ProbeReading) => void;
  metrics?: ProbeMetrics;
}

interface Run {
  probe: StartedProbe;
  controller: AbortController;
  /** Holds a concurrency slot; given back at the latest by the grace deadline. */
  holdsSlot: boolean;
  /**
   * Nothing more is taken from it: its reading was recorded, or it went out of date (target
   * changed or gone, share moved, monitoring stopped) and was cancelled.
   */
  closed: boolean;
  done: Promise<void>;
  /** The probe's result, once it has one (at the latest at the grace deadline). */
  result: Promise<ProbeResult>;
}

/** A probe outside the schedule (a room check's), holding its device until it really ends. */
interface OneOff {
  equipmentId: string;
  result: Promise<ProbeResult>;
  ended: Promise<void>;
}

const seconds = (ms: number) => `${Number((ms / 1000).toFixed(1))} s`;

/**
 * Runs the schedule's probes while active: at most `concurrency` at once, each within its
 * timeout, and only of the equipment this replica owns. A probe whose result would be out of
 * date is cancelled and its reading dropped: the next one, with the current settings or on the
 * replica that owns the device now, tells the truth.
 */
export class ProbeRunner {
  private readonly logger = new Logger(ProbeRunner.name);
  private readonly schedule = new ProbeSchedule();
  private readonly runs = new Set<Run>();
  private readonly oneOffs = new Map<string, OneOff>();
  private slotsInUse = 0;
  private active = false;
  private owns: (plan: PlannedProbe) => boolean = () => false;
  private timer?: NodeJS.Timeout;

  constructor(private readonly options: ProbeRunnerOptions) {}

  get targets(): number {
    return this.schedule.size;
  }

  /** Targets `owns` accepts: this replica's share. */
  ownedTargets(): number {
    let n = 0;
    for (const plan of this.schedule.plans()) if (this.owns(plan)) n++;
    return n;
  }

  /** The plans of these equipment, as the targets were last loaded. */
  plansOf(equipmentIds: ReadonlySet<string>): PlannedProbe[] {
    const found: PlannedProbe[] = [];
    for (const plan of this.schedule.plans()) if (equipmentIds.has(plan.target.equipmentId)) found.push(plan);
    return found;
  }

  /**
   * A probe of this plan now, for a room check, never beside another probe of its device: one of
   * the same equipment in flight (scheduled or another room check's) is joined and its result
   * answered; one of another equipment record of the device is waited out. Meanwhile the
   * schedule starts no probe of the device (its due targets wait, as behind a scheduled probe).
   */
  async probeNow(plan: PlannedProbe, timeoutMs: number): Promise<ProbeResult> {
    const device = plan.device;
    const equipmentId = plan.target.equipmentId;
    for (;;) {
      const run = [...this.runs].find((r) => r.probe.plan.device === device);
      const oneOff = this.oneOffs.get(device);
      if (run?.probe.equipmentId === equipmentId) return run.result;
      if (oneOff?.equipmentId === equipmentId) return oneOff.result;
      if (run) await run.done;
      else if (oneOff) await oneOff.ended;
      else if (this.schedule.claim(device)) break;
      // Busy with a run that has not registered yet: it does within this turn.
      else await new Promise((resolve) => setImmediate(resolve));
    }
    const { result, ended } = startProbe(this.options.registry, plan, timeoutMs);
    const held: OneOff = {
      equipmentId,
      result,
      ended: ended.finally(() => {
        this.oneOffs.delete(device);
        this.schedule.release(device);
        this.pump();
      }),
    };
    this.oneOffs.set(device, held);
    return result;
  }

  /** Probes not yet ended, also those past their deadline that hold no slot any more. */
  get inFlight(): number {
    return this.runs.size;
  }

  sync(plans: readonly PlannedProbe[]): void {
    const { changed, removed } = this.schedule.sync(plans, Date.now());
    const stale = new Set([...changed, ...removed]);
    if (stale.size) this.discardWhere((run) => stale.has(run.probe.equipmentId));
    this.pump();
  }

  /** Which targets this replica probes; probes of those it no longer owns are cancelled. */
  setOwnership(owns: (plan: PlannedProbe) => boolean): void {
    this.owns = owns;
    this.discardWhere((run) => !owns(run.probe.plan));
    this.pump();
  }

  /** Probes run only while active (monitoring running); going inactive cancels those in flight. */
  setActive(active: boolean): void {
    if (active === this.active) return;
    this.active = active;
    if (!active) {
      clearTimeout(this.timer);
      this.discardWhere(() => true);
      return;
    }
    this.schedule.rephase(Date.now());
    this.pump();
  }

  /** Cancels every probe and waits until each has ended, or until one that ignores it had to. */
  async stop(): Promise<void> {
    this.setActive(false);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all([...this.runs].map((run) => run.done)),
      new Promise((resolve) => (timer = setTimeout(resolve, this.options.timeoutMs + PROBE_GRACE_MS))),
    ]);
    clearTimeout(timer);
  }

  private discardWhere(predicate: (run: Run) => boolean): void {
    for (const run of this.runs) {
      if (run.closed || !predicate(run)) continue;
      run.closed = true;
      run.controller.abort();
    }
  }

  private pump(): void {
    clearTimeout(this.timer);
    if (!this.active) return;
    const free = this.options.concurrency - this.slotsInUse;
    const now = Date.now();
    for (const probe of this.schedule.take(now, free, this.owns)) this.start(probe, now);
    // With every slot taken, the next probe to end pumps again.
    if (this.slotsInUse >= this.options.concurrency) return;
    const next = this.schedule.nextDueAt();
    if (next !== undefined) this.timer = setTimeout(() => this.pump(), Math.max(0, next - now));
  }

  private start(probe: StartedProbe, now: number): void {
    const run: Run = {
      probe,
      controller: new AbortController(),
      holdsSlot: true,
      closed: false,
      done: Promise.resolve(),
      result: Promise.resolve({ outcome: 'unreachable', findings: [] }),
    };
    let answer!: (result: ProbeResult) => void;
    run.result = new Promise((resolve) => (answer = resolve));
    this.slotsInUse++;
    this.runs.add(run);
    this.options.metrics?.startDelay.observe(Math.max(0, now - probe.dueAt) / 1000);
    run.done = this.execute(run, answer)
      .catch((error: unknown) => this.logger.error(`Probing ${probe.equipmentId} failed: ${String(error)}`))
      .finally(() => {
        answer({ outcome: 'protocol-error', findings: [], detail: 'The probe failed' });
        this.releaseSlot(run);
        this.runs.delete(run);
        this.schedule.finish(probe);
        this.pump();
      });
  }

  private async execute(run: Run, answer: (result: ProbeResult) => void): Promise<void> {
    const { plan } = run.probe;
    const started = performance.now();
    if (plan.refused) {
      const refused: ProbeResult = { outcome: 'unreachable', findings: [], detail: plan.refused };
      answer(refused);
      return this.record(run, refused, 0);
    }
    const timeoutMs = this.options.timeoutMs;
    const probing = this.probe(plan, timeoutMs, run.controller.signal);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>(
      (resolve) => (timer = setTimeout(resolve, timeoutMs + PROBE_GRACE_MS, null)),
    );
    const result = await Promise.race([probing, late]).finally(() => clearTimeout(timer));
    if (result) {
      answer(result);
      return this.record(run, result, performance.now() - started);
    }
    // The device stays busy until the probe really ends: no second connection to it meanwhile.
    run.controller.abort();
    const overran: ProbeResult = {
      outcome: 'unreachable',
      findings: [],
      detail: `No answer within ${seconds(timeoutMs)}`,
    };
    answer(overran);
    this.record(run, overran, timeoutMs);
    this.releaseSlot(run);
    this.pump();
    this.logger.warn(`The ${plan.target.probe.type} probe of ${plan.device} overran its timeout`);
    await probing;
  }

  /** The probe's result; a probe that throws (a fault of ours, not the device's) reads as a protocol error. */
  private async probe(plan: PlannedProbe, timeoutMs: number, signal: AbortSignal): Promise<ProbeResult> {
    const { target, port, device } = plan;
    const client = this.options.registry.get(target.probe.type);
    if (!client) return { outcome: 'protocol-error', findings: [], detail: 'This monitor has no such probe' };
    try {
      return await client.probe({
        address: device,
        port,
        settings: target.probe,
        secrets: target.secrets,
        timeoutMs,
        signal,
      });
    } catch (error) {
      this.logger.error(`The ${target.probe.type} probe of ${device} threw: ${String(error)}`);
      return {
        outcome: 'protocol-error',
        findings: [],
        detail: `The probe failed: ${String(error)}`.slice(0, 300),
      };
    }
  }

  private record(run: Run, result: ProbeResult, elapsedMs: number): void {
    if (run.closed || !this.schedule.isCurrent(run.probe)) return;
    run.closed = true;
    const type: ProbeType = run.probe.plan.target.probe.type;
    this.options.metrics?.probes.inc({ type, outcome: result.outcome });
    this.options.metrics?.duration.observe({ type }, elapsedMs / 1000);
    this.options.publish({
      ...result,
      equipmentId: run.probe.equipmentId,
      probeType: type,
      checkedAt: new Date().toISOString(),
    });
  }

  private releaseSlot(run: Run): void {
    if (!run.holdsSlot) return;
    run.holdsSlot = false;
    this.slotsInUse--;
  }
}
