import {
  type AddressResult,
  allowedAddressProblem,
  durableConsumers,
  events,
  isAddressError,
  parseAddressTarget,
  type ProbeReading,
  probeReadingSchema,
  ROOM_CHECK_PROBE_TIMEOUT_MS,
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
import { type PlannedProbe } from '../probes/probe-plan';
import { ProbeRegistry } from '../probes/probe-registry';
import { ProbeScheduler } from '../probes/probe-scheduler';
import { ResultsRecorded } from '../sweep/results-recorded';
import { newSweepId } from '../sweep/sweep-coordinator';
import { runProbeOnce } from './probe-once';

/** How long the answer waits for inventory to record the results, past the checks themselves. */
const RECORD_WAIT_MS = 1000;

interface Pinged {
  equipmentId: string;
  check?: StatusCheck;
  skipped?: string;
}

/**
 * "Check this room now": one replica (whichever takes the request) pings the room's addresses and
 * runs their deep probes at once, publishes the results as a sweep's are (inventory records them
 * alike), and answers them. A room is a few dozen devices: splitting it over replicas would cost
 * more in messages than it saves. A device whose scheduled probe runs meanwhile on its owner gets
 * two connections for a moment; a person asked for this one.
 */
@Injectable()
export class RoomCheckService {
  private readonly logger = new Logger(RoomCheckService.name);

  constructor(
    @Inject(CONFIG) private readonly config: Config,
    private readonly pinger: Pinger,
    private readonly probes: ProbeScheduler,
    private readonly registry: ProbeRegistry,
    private readonly jetstream: JetStreamConnection,
    private readonly recorded: ResultsRecorded,
    private readonly membership: Membership,
    private readonly metrics: MonitorMetrics,
  ) {}

  async check(request: RoomCheckRequest): Promise<RoomCheckResult> {
    const started = performance.now();
    const ids = new Set(request.equipment.map((e) => e.equipmentId));
    const plans = this.probes.plansOf(ids);
    const [pinged, readings] = await Promise.all([
      Promise.all(request.equipment.map((e) => this.ping(e.equipmentId, e.ipAddress))),
      Promise.all(plans.map((plan) => this.probe(plan))),
    ]);
    const deadline = Date.now() + RECORD_WAIT_MS;
    const recorded = await this.publish(pinged, readings, deadline);
    const byId = new Map(readings.map((r) => [r.equipmentId, r]));
    const equipment = pinged.map((p): RoomCheckEquipment => {
      const reading = byId.get(p.equipmentId);
      return {
        equipmentId: p.equipmentId,
        status: p.check?.status ?? null,
        rttMs: p.check?.rttMs ?? null,
        probe: reading ? { type: reading.probeType, outcome: reading.outcome, detail: reading.detail } : null,
        ...(p.skipped ? { skipped: p.skipped } : {}),
      };
    });
    const checked = pinged.filter((p) => p.check);
    const answered = checked.filter((p) => p.check!.results.some((r) => r.alive)).length;
    return {
      roomId: request.roomId,
      checkedAt: new Date().toISOString(),
      durationMs: Math.round(performance.now() - started),
      recorded,
      equipment,
      message:
        checked.length === 0
          ? 'No equipment in this room has an address to check'
          : `Checked ${checked.length} equipment: ${answered} answered`,
    };
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

  private async probe(plan: PlannedProbe): Promise<ProbeReading> {
    const timeoutMs = Math.min(this.config.MONITOR_PROBE_TIMEOUT_MS, ROOM_CHECK_PROBE_TIMEOUT_MS);
    const result = await runProbeOnce(this.registry, plan, timeoutMs);
    return {
      ...result,
      equipmentId: plan.target.equipmentId,
      probeType: plan.target.probe.type,
      checkedAt: new Date().toISOString(),
    };
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
