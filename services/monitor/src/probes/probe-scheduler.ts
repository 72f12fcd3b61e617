import { messages, type ProbeNowReply, type ProbeNowRequest, type ProbeTarget } from '@cm/contracts';
import { CONFIG, JetStreamConnection, MetricsService } from '@cm/platform';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { type Subscription } from 'nats';
import { Membership } from '../cluster/membership';
import { ownerOf } from '../cluster/rendezvous';
import { type Config } from '../config';
import { ReplicaWire } from '../sweep/wire';
import { ProbeMetrics } from '../metrics/probe-metrics';
import { MonitoringState } from '../monitoring/monitoring-state';
import { describeSkipped, type PlannedProbe, planProbes } from './probe-plan';
import { ProbeRegistry } from './probe-registry';
import { type ProbeResult } from './probe';
import { ProbeRunner } from './probe-runner';
import { ProbeTargetList } from './probe-target-list';
import { ReadingPublisher } from './reading-publisher';

/** How often the running state and the live replicas are read. */
const POLL_MS = 2000;

/**
 * Deep probes (PJLink, SNMP, Q-SYS, Extron, TCP, HTTP) on every replica, beside the ping sweeps:
 * each replica probes the devices rendezvous hashing gives it among the live replicas, while
 * monitoring runs, and publishes the readings on the HEALTH stream. Unlike the sweeps, nothing
 * fires probes centrally: every replica computes the same owners from the same member list, and
 * when the list changes, shares move. Devices are owned by address, not equipment id, so that
 * two equipment records of one device never have it probed from two replicas at once.
 */
@Injectable()
export class ProbeScheduler {
  private readonly logger = new Logger(ProbeScheduler.name);
  private readonly runner: ProbeRunner;
  private readonly publisher: ReadingPublisher;
  private timer?: NodeJS.Timeout;
  private polling?: Promise<void>;
  private loading?: Promise<void>;
  private members = '';
  private memberList: string[] = [];
  private readonly wire: ReplicaWire;
  private serving?: Subscription;
  private pollFailing = false;
  private lastSkipped: string | null = null;

  constructor(
    @Inject(CONFIG) private readonly config: Config,
    private readonly registry: ProbeRegistry,
    private readonly targets: ProbeTargetList,
    private readonly membership: Membership,
    private readonly state: MonitoringState,
    jetstream: JetStreamConnection,
    metrics: ProbeMetrics,
    metricsService: MetricsService,
  ) {
    this.publisher = new ReadingPublisher(jetstream, metrics);
    this.wire = new ReplicaWire(jetstream.nc, jetstream.namespace);
    this.runner = new ProbeRunner({
      registry,
      concurrency: config.MONITOR_PROBE_CONCURRENCY,
      timeoutMs: config.MONITOR_PROBE_TIMEOUT_MS,
      publish: (reading) => this.publisher.add(reading),
      metrics,
    });
    targets.onLoad((list) => this.load(list));
    metricsService.addCollector(() => {
      metrics.inFlight.set(this.runner.inFlight);
      metrics.targets.set({ share: 'all' }, this.runner.targets);
      metrics.targets.set({ share: 'own' }, this.runner.ownedTargets());
    });
  }

  /** Once this replica has joined: loads the targets (retrying) and starts probing its share. */
  start(): void {
    this.serving = this.wire.serve(
      messages.monitor.probeNow,
      this.membership.memberId,
      (request, respond) => void this.answerProbeNow(request).then(respond),
      (error) => this.logger.warn(`Probe requests: ${String(error)}`),
    );
    this.loading = this.targets
      .start()
      .catch((error: unknown) => this.logger.error(`Loading the probe targets failed: ${String(error)}`));
    const loop = () => {
      this.polling = this.poll().finally(() => {
        if (this.timer) this.timer = setTimeout(loop, POLL_MS);
      });
    };
    this.timer = setTimeout(loop, 0);
  }

  /** The deep probes of these equipment (a room check runs them at once, whoever owns them). */
  plansOf(equipmentIds: ReadonlySet<string>): PlannedProbe[] {
    return this.runner.plansOf(equipmentIds);
  }

  /**
   * The replica that probes this device, among the live replicas as last read; undefined before
   * the first read (this replica then probes it itself).
   */
  ownerOf(device: string): string | undefined {
    return this.memberList.length ? ownerOf(device, this.memberList) : undefined;
  }

  /** A probe of this plan now, on this replica, joining one of it in flight (see ProbeRunner.probeNow). */
  probeNow(plan: PlannedProbe, timeoutMs: number): Promise<ProbeResult> {
    return this.runner.probeNow(plan, timeoutMs);
  }

  /** Asks the replica that owns the device to probe it now; throws when it does not answer in time. */
  async askOwner(owner: string, request: ProbeNowRequest, waitMs: number): Promise<ProbeNowReply> {
    return this.wire.ask(messages.monitor.probeNow, owner, request, waitMs);
  }

  private async answerProbeNow(request: ProbeNowRequest | undefined): Promise<ProbeNowReply> {
    if (!request) return { reading: null };
    const [plan] = this.runner.plansOf(new Set([request.equipmentId]));
    if (!plan) return { reading: null };
    const result = await this.runner.probeNow(plan, request.timeoutMs);
    return {
      reading: {
        ...result,
        equipmentId: plan.target.equipmentId,
        probeType: plan.target.probe.type,
        checkedAt: new Date().toISOString(),
      },
    };
  }

  /** Cancels the probes under way and sends the readings gathered. */
  async stop(): Promise<void> {
    this.serving?.unsubscribe();
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.polling;
    await this.targets.stop();
    await this.loading;
    await this.runner.stop();
    await this.publisher.close();
  }

  private load(targets: ProbeTarget[]): void {
    const { plans, skipped } = planProbes(targets, this.config.MONITOR_ALLOWED_NETWORKS, (type) =>
      Boolean(this.registry.get(type)),
    );
    const said = describeSkipped(skipped);
    if (said && said !== this.lastSkipped) this.logger.warn(said);
    this.lastSkipped = said;
    this.runner.sync(plans);
  }

  /** A replica that cannot read the state or the members keeps to what it last read. */
  private async poll(): Promise<void> {
    try {
      const [status, members] = await Promise.all([this.state.get(), this.membership.live()]);
      const key = members.join(',');
      if (key !== this.members) {
        this.members = key;
        this.memberList = members;
        const me = this.membership.memberId;
        // Not among them (its entry lapsed): the others have its share, so it probes nothing.
        this.runner.setOwnership((plan: PlannedProbe) => ownerOf(plan.device, members) === me);
      }
      this.runner.setActive(status.isRunning);
      this.pollFailing = false;
    } catch (error) {
      if (!this.pollFailing) this.logger.warn(`Reading the monitoring state failed: ${String(error)}`);
      this.pollFailing = true;
    }
  }
}
