import {
  type AddressResult,
  allowedAddressProblem,
  describeRoomCheck,
  durableConsumers,
  events,
  isAddressError,
  parseAddressTarget,
  ROOM_CHECK_ANSWER_MS,
  type ProbeReading,
  probeReadingSchema,
  type RoomCheckEquipment,
  type RoomCheckRequest,
  type RoomCheckResult,
  type StatusCheck,
  streams,
} from '@cm/contracts';
import { CONFIG, JetStreamConnection } from '@cm/platform';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { Membership } from '../cluster/membership';
import { type Config } from '../config';
import { MonitorMetrics } from '../metrics/monitor-metrics';
import { Pinger } from '../ping/pinger';
import { summarize } from '../ping/status';
import { type ProbeResult } from '../probes/probe';
import { PROBE_GRACE_MS } from '../probes/probe-once';
import { type PlannedProbe } from '../probes/probe-plan';
import { ProbeScheduler } from '../probes/probe-scheduler';
import { ResultsRecorded } from '../sweep/results-recorded';
import { newSweepId } from '../sweep/sweep-coordinator';

/**
 * Of the person's ROOM_CHECK_ANSWER_MS: the checks get this long, what is known then is answered
 * and the rest marked pending; the answer then waits for inventory to record what it holds until
 * RECORD_BY_MS, leaving the rest for NATS and the gateway.
 */
const CHECKS_MS = ROOM_CHECK_ANSWER_MS * 0.6;
const RECORD_BY_MS = ROOM_CHECK_ANSWER_MS * 0.85;
/** How long a late result waits for inventory to record it before its live event goes anyway. */
const LATE_RECORD_WAIT_MS = 5000;

interface Pinged {
  equipmentId: string;
  check?: StatusCheck;
  skipped?: string;
}

/** A check under way: its value once it has one. */
class Tracked<T> {
  value?: T;
  done = false;
  readonly settled: Promise<T>;
  constructor(promise: Promise<T>) {
    this.settled = promise.then((value) => {
      this.value = value;
      this.done = true;
      return value;
    });
  }
}

/** One equipment's checks: its ping and, when it has one, its deep probe. */
interface Item {
  equipmentId: string;
  ping: Tracked<Pinged>;
  probe?: Tracked<ProbeReading>;
}

const isDone = (item: Item) => item.ping.done && (item.probe?.done ?? true);

/**
 * "Check this room now": the replica that takes the request pings the room's addresses at once
 * and has their deep probes run, publishes the results as a sweep's are (inventory records them
 * alike), and answers within ROOM_CHECK_ANSWER_MS whatever the devices do: what has not come by
 * then is marked pending, and follows, once inventory has recorded it, in a `room.checked` live
 * event, which open screens apply to the check's answer.
 *
 * A deep probe never opens a second connection to a device: it runs on the replica that owns the
 * device (rendezvous hashing, as the schedule places it), asked over NATS when that is another
 * replica, and there it joins a probe of the device already in flight or holds the device so the
 * schedule starts none meanwhile. Many projectors take one control connection at a time.
 */
@Injectable()
export class RoomCheckService {
  private readonly logger = new Logger(RoomCheckService.name);

  constructor(
    @Inject(CONFIG) private readonly config: Config,
    private readonly pinger: Pinger,
    private readonly probes: ProbeScheduler,
    private readonly jetstream: JetStreamConnection,
    private readonly recorded: ResultsRecorded,
    private readonly membership: Membership,
    private readonly metrics: MonitorMetrics,
  ) {}

  async check(request: RoomCheckRequest): Promise<RoomCheckResult> {
    const started = performance.now();
    const checkId = newSweepId();
    const plans = new Map(
      this.probes
        .plansOf(new Set(request.equipment.map((e) => e.equipmentId)))
        .map((p) => [p.target.equipmentId, p]),
    );
    const items = request.equipment.map((e): Item => {
      const plan = plans.get(e.equipmentId);
      return {
        equipmentId: e.equipmentId,
        ping: new Tracked(this.ping(e.equipmentId, e.ipAddress)),
        probe: plan ? new Tracked(this.probe(plan)) : undefined,
      };
    });
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(items.flatMap((i) => [i.ping.settled, i.probe?.settled])),
      new Promise((resolve) => (timer = setTimeout(resolve, CHECKS_MS))),
    ]);
    clearTimeout(timer);

    const pending = items.filter((i) => !isDone(i));
    const recorded = await this.publish(
      items.flatMap((i) => (i.ping.done ? [i.ping.value!] : [])),
      items.flatMap((i) => (i.probe?.done ? [i.probe.value!] : [])),
      Date.now() + Math.max(0, RECORD_BY_MS - (performance.now() - started)),
    );
    const equipment = items.map((i) => entryOf(i));
    if (pending.length) void this.deliverLate(request.roomId, checkId, pending);
    return {
      roomId: request.roomId,
      checkId,
      checkedAt: new Date().toISOString(),
      durationMs: Math.round(performance.now() - started),
      recorded,
      equipment,
      message: describeRoomCheck(equipment),
    };
  }

  /**
   * The results that came after the answer, in batches as they come: each published (what the
   * answer held was published already), and once inventory has recorded it, announced live.
   */
  private async deliverLate(roomId: string, checkId: string, pending: Item[]): Promise<void> {
    const published = new Set(
      pending.flatMap((i) => [i.ping.done ? i.ping : undefined, i.probe?.done ? i.probe : undefined]),
    );
    let rest = pending;
    while (rest.length) {
      await Promise.race(rest.map((i) => Promise.all([i.ping.settled, i.probe?.settled])));
      const done = rest.filter(isDone);
      rest = rest.filter((i) => !isDone(i));
      const pings = done.flatMap((i) => (published.has(i.ping) ? [] : [i.ping.value!]));
      const readings = done.flatMap((i) => (i.probe && !published.has(i.probe) ? [i.probe.value!] : []));
      try {
        const recorded = await this.publish(pings, readings, Date.now() + LATE_RECORD_WAIT_MS);
        await this.jetstream.publish(
          events.liveRoomChecked,
          { roomId, checkId, equipment: done.map((i) => entryOf(i)), recorded },
          { msgId: `${checkId}:${done[0].equipmentId}` },
        );
      } catch (error) {
        this.logger.warn(`The late results of room check ${checkId} were not announced: ${String(error)}`);
      }
    }
  }

  private async ping(equipmentId: string, ipAddress: string | null): Promise<Pinged> {
    if (!ipAddress) return { equipmentId, skipped: 'No IP address' };
    const parsed = parseAddressTarget(ipAddress);
    if (isAddressError(parsed)) return { equipmentId, skipped: parsed.error };
    const problem = allowedAddressProblem(parsed, this.config.MONITOR_ALLOWED_NETWORKS);
    if (problem) return { equipmentId, skipped: problem };
    const results: AddressResult[] = await Promise.all(
      parsed.addresses.map((address) => this.pinger.ping(address)),
    );
    for (const r of results) this.metrics.pings.inc({ result: r.alive ? 'answered' : 'unanswered' });
    const { status, rttMs } = summarize(results);
    return {
      equipmentId,
      check: { equipmentId, status, checkedAt: new Date().toISOString(), rttMs, results },
    };
  }

  /** The device's probe, on the replica that owns it (see the class comment). */
  private async probe(plan: PlannedProbe): Promise<ProbeReading> {
    // The schedule's own timeout: the answer does not wait for it, and a slow projector (2 s an
    // answer is common) gets a true reading rather than "no answer".
    const timeoutMs = this.config.MONITOR_PROBE_TIMEOUT_MS;
    const owner = this.probes.ownerOf(plan.device);
    const result =
      owner === undefined || owner === this.membership.memberId
        ? await this.probes.probeNow(plan, timeoutMs)
        : await this.probeOn(owner, plan, timeoutMs);
    return {
      checkedAt: new Date().toISOString(),
      ...result,
      equipmentId: plan.target.equipmentId,
      probeType: plan.target.probe.type,
    };
  }

  private async probeOn(
    owner: string,
    plan: PlannedProbe,
    timeoutMs: number,
  ): Promise<ProbeResult & { checkedAt?: string }> {
    // The owner may join its scheduled probe, or wait out one of another record of the device.
    const waitMs = 2 * (timeoutMs + PROBE_GRACE_MS) + PROBE_GRACE_MS;
    try {
      const { reading } = await this.probes.askOwner(
        owner,
        { equipmentId: plan.target.equipmentId, timeoutMs },
        waitMs,
      );
      if (reading) return reading;
      // The owner has not loaded this probe (yet), so it runs none of it: this replica may.
      return await this.probes.probeNow(plan, timeoutMs);
    } catch (error) {
      // Nobody serves the owner's subject: it is gone (its share not yet moved), so nothing of it probes.
      if ((error as { code?: string }).code === '503') return this.probes.probeNow(plan, timeoutMs);
      this.logger.warn(`The replica that probes ${plan.device} did not answer: ${String(error)}`);
      return {
        outcome: 'unreachable',
        findings: [],
        detail: 'The monitor replica that probes this device did not answer in time',
      };
    }
  }

  /** Publishes the checks and readings; true once inventory has recorded both (or at the deadline, false). */
  private async publish(pinged: Pinged[], readings: ProbeReading[], deadline: number): Promise<boolean> {
    const checks = pinged.flatMap((p) => (p.check ? [p.check] : []));
    const valid = readings.filter((r) => probeReadingSchema.safeParse(r).success);
    const sweepId = newSweepId();
    try {
      const [status, health] = await Promise.all([
        checks.length
          ? this.jetstream.publish(
              events.statusChecked,
              { sweepId, checks },
              { msgId: `${sweepId}:room:${this.membership.memberId}` },
            )
          : undefined,
        valid.length
          ? this.jetstream.publish(
              events.healthProbed,
              { batchId: sweepId, readings: valid },
              { msgId: `${sweepId}:health` },
            )
          : undefined,
      ]);
      const [statusDone, healthDone] = await Promise.all([
        this.recorded.waitFor(status?.seq ?? 0, deadline),
        this.recorded.waitFor(health?.seq ?? 0, deadline, {
          stream: streams.health.name,
          consumer: durableConsumers.inventoryHealth,
        }),
      ]);
      return statusDone && healthDone;
    } catch (error) {
      this.logger.warn(`The results of a room check were not recorded: ${String(error)}`);
      return false;
    }
  }
}

/** What is known of one equipment's checks now; pending while any has not come. */
function entryOf(item: Item): RoomCheckEquipment {
  const pinged = item.ping.value;
  const reading = item.probe?.value;
  return {
    equipmentId: item.equipmentId,
    status: pinged?.check?.status ?? null,
    rttMs: pinged?.check?.rttMs ?? null,
    probe: reading ? { type: reading.probeType, outcome: reading.outcome, detail: reading.detail } : null,
    ...(pinged?.skipped ? { skipped: pinged.skipped } : {}),
    ...(isDone(item) ? {} : { pending: true }),
  };
}
