import { hash53 } from '../cluster/rendezvous';
import { MinHeap } from './min-heap';
import { type PlannedProbe } from './probe-plan';

interface Entry {
  id: string;
  plan: PlannedProbe;
  /** The target as last loaded, to tell a change (settings, secrets, address) from a reload. */
  fingerprint: string;
  /** Bumped by each change: due times pushed before it are stale. */
  version: number;
  /** Where the entry's slots fall within its interval, from its equipment id. */
  phaseMs: number;
}

interface Slot {
  at: number;
  entry: Entry;
  version: number;
}

/** A probe the schedule has started: the runner reports it with `finish`. */
export interface StartedProbe {
  equipmentId: string;
  plan: PlannedProbe;
  version: number;
  /** When it was due (epoch ms); it starts at or after it. */
  dueAt: number;
}

const fingerprintOf = ({ target }: PlannedProbe) => JSON.stringify(target);
const mod = (a: number, n: number) => ((a % n) + n) % n;

/**
 * When each device is probed. Each target's slots fall every interval at a phase fixed by its
 * equipment id, so 10,000 devices are spread evenly over their interval, and every replica
 * reckons the same slots (a device whose share moves keeps its rhythm). Never two probes to one
 * device at once: a due target whose device is busy waits until it is free. A probe starts no
 * sooner than half its interval after the previous one started, whatever queueing delayed that.
 * Pure: the caller gives the time.
 */
export class ProbeSchedule {
  private readonly entries = new Map<string, Entry>();
  private readonly heap = new MinHeap<Slot>();
  private readonly busy = new Set<string>();
  /** Slots popped while their device was busy, by device. */
  private readonly waiting = new Map<string, Slot[]>();
  private synced = false;

  get size(): number {
    return this.entries.size;
  }

  /** Every target as now loaded. */
  *plans(): IterableIterator<PlannedProbe> {
    for (const entry of this.entries.values()) yield entry.plan;
  }

  /**
   * Takes the list as loaded. On the first load every target gets its next slot; after it, a new
   * target or one whose settings, secrets or address changed is due at once (someone just set it
   * up and waits to see its health), the others keep their slots. Answers the equipment whose
   * probe in flight, if any, is now out of date.
   */
  sync(plans: readonly PlannedProbe[], now: number): { changed: string[]; removed: string[] } {
    const changed: string[] = [];
    const removed: string[] = [];
    const seen = new Set<string>();
    for (const plan of plans) {
      const id = plan.target.equipmentId;
      seen.add(id);
      const fingerprint = fingerprintOf(plan);
      const entry = this.entries.get(id);
      if (entry?.fingerprint === fingerprint) {
        entry.plan = plan;
        continue;
      }
      const next: Entry = {
        id,
        plan,
        fingerprint,
        version: (entry?.version ?? 0) + 1,
        phaseMs: hash53(id) % plan.intervalMs,
      };
      this.entries.set(id, next);
      if (entry) changed.push(id);
      this.push(next, this.synced ? now : this.slotAtOrAfter(next, now));
    }
    for (const id of this.entries.keys()) {
      if (seen.has(id)) continue;
      this.entries.delete(id);
      removed.push(id);
    }
    this.synced = true;
    return { changed, removed };
  }

  /**
   * Gives every target its next slot from `now`: after a pause (monitoring stopped), the devices
   * are probed spread over their interval again, not all at once.
   */
  rephase(now: number): void {
    this.heap.clear();
    this.waiting.clear();
    for (const entry of this.entries.values()) this.push(entry, this.slotAtOrAfter(entry, now));
  }

  /**
   * Starts up to `limit` probes due by `now`, earliest first, of the targets `owns` accepts; the
   * others' slots pass (another replica probes them).
   */
  take(now: number, limit: number, owns: (plan: PlannedProbe) => boolean): StartedProbe[] {
    const started: StartedProbe[] = [];
    while (started.length < limit) {
      const top = this.heap.peek();
      if (!top || top.at > now) break;
      this.heap.pop();
      const entry = this.live(top);
      if (!entry) continue;
      const device = entry.plan.device;
      if (!owns(entry.plan)) this.push(entry, this.nextAfter(entry, now));
      else if (this.busy.has(device)) this.park(device, top);
      else {
        this.busy.add(device);
        this.push(entry, this.nextAfter(entry, now));
        started.push({ equipmentId: entry.id, plan: entry.plan, version: entry.version, dueAt: top.at });
      }
    }
    return started;
  }

  /** The device of a started probe is free again; what waited for it is due. */
  finish(probe: StartedProbe): void {
    this.release(probe.plan.device);
  }

  /**
   * Takes a device for a probe outside the schedule (a room check's): false when a probe of it is
   * under way. Until `release`, its due targets wait as for a probe of the schedule's own.
   */
  claim(device: string): boolean {
    if (this.busy.has(device)) return false;
    this.busy.add(device);
    return true;
  }

  /** The device is free again; what waited for it is due. */
  release(device: string): void {
    this.busy.delete(device);
    const parked = this.waiting.get(device);
    if (!parked) return;
    this.waiting.delete(device);
    for (const slot of parked) this.heap.push(slot);
  }

  /** Whether the probe's target is still loaded with the settings it started with. */
  isCurrent(probe: StartedProbe): boolean {
    return this.entries.get(probe.equipmentId)?.version === probe.version;
  }

  /** The earliest due time (epoch ms) of a target not waiting for its device. */
  nextDueAt(): number | undefined {
    for (;;) {
      const top = this.heap.peek();
      if (!top || this.live(top)) return top?.at;
      this.heap.pop();
    }
  }

  private live(slot: Slot): Entry | undefined {
    const entry = this.entries.get(slot.entry.id);
    return entry === slot.entry && entry.version === slot.version ? entry : undefined;
  }

  private park(device: string, slot: Slot): void {
    const parked = this.waiting.get(device);
    if (parked) parked.push(slot);
    else this.waiting.set(device, [slot]);
  }

  private push(entry: Entry, at: number): void {
    this.heap.push({ at, entry, version: entry.version });
  }

  private nextAfter(entry: Entry, start: number): number {
    return this.slotAtOrAfter(entry, start + entry.plan.intervalMs / 2);
  }

  private slotAtOrAfter(entry: Entry, t: number): number {
    return t + mod(entry.phaseMs - t, entry.plan.intervalMs);
  }
}
