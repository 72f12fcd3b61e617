import { HealthService } from '@cm/platform';
import {
  type BeforeApplicationShutdown,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { Membership } from '../cluster/membership';
import { ProbeScheduler } from '../probes/probe-scheduler';
import { SweepCoordinator } from '../sweep/sweep-coordinator';
import { SweepScheduler } from '../sweep/sweep-scheduler';
import { SweepWorker } from '../sweep/sweep-worker';
import { EquipmentChanges } from '../targets/equipment-changes';
import { TargetList } from '../targets/target-list';

/**
 * The order a replica comes and goes in. It takes sweep assignments at once, joins the
 * membership only once it holds the equipment list (a member without it would miss its share),
 * then competes for the scheduler lease and starts probing its share of the devices. Going, it
 * cancels its probes and sends the readings it has, leaves the membership, so the next sweep is
 * split without it and the others take its devices, cuts its running share short (reported
 * aborted, so the replica that fired the sweep hands it to the others), hands the scheduler lease
 * back, and lets a sweep it fired itself hand its share on before it stops waiting for it.
 */
@Injectable()
export class ReplicaLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(ReplicaLifecycle.name);
  private joining?: Promise<void>;
  private stopping = false;

  constructor(
    health: HealthService,
    private readonly membership: Membership,
    private readonly targets: TargetList,
    private readonly worker: SweepWorker,
    private readonly scheduler: SweepScheduler,
    private readonly coordinator: SweepCoordinator,
    private readonly probes: ProbeScheduler,
    private readonly changes: EquipmentChanges,
  ) {
    // Pinging its list is this pod's work, so it is not ready before it has one: a rolling update
    // then keeps the old replica pinging until the new one can take over. Once loaded, the list is
    // kept when inventory goes away, so only a start waits on inventory.
    health.register('equipmentList', async () => {
      if (!targets.loaded) throw new Error('The equipment list has not been loaded from inventory yet');
      return { detail: `${targets.size} equipment with an address` };
    });
  }

  onApplicationBootstrap(): void {
    this.worker.start();
    this.joining = this.targets
      .start()
      .then(async () => {
        if (this.stopping) return;
        await this.membership.join();
        this.scheduler.start();
        this.probes.start();
        this.logger.log(
          `Replica ${this.membership.memberId} joined with ${this.targets.size} equipment to ping`,
        );
      })
      .catch((error: unknown) => this.logger.error(`Joining the monitor replicas failed: ${String(error)}`));
  }

  // Before the NATS connection closes (it closes in the shutdown hooks).
  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    // Before leaving: once gone from the members, another replica may start on these devices.
    await this.probes.stop();
    await this.membership.leave();
    // Reports its running share aborted; a sweep fired here then hands it to the others.
    await this.worker.stop();
    await this.scheduler.stop();
    await this.coordinator.stop();
    await this.targets.stop();
    await this.joining;
    await this.changes.stop();
  }
}
