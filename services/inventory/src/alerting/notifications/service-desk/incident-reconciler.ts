import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { PeriodicTask } from '../../../shared/periodic-task';
import { DELIVERY_CLOCK, type DeliveryClock } from '../delivery-clock';
import { DeliveryRepository } from '../delivery.repository';
import { DeliveryRelay } from '../delivery.relay';
import { IncidentRepository } from './incident.repository';
import { IncidentSync } from './incident-sync';

/** How often our open incidents are compared with the room alerts: every 10 minutes. */
export const RECONCILE_EVERY_MS = 10 * 60_000;
/** How often a replica asks whether a round is due (one of them does it). */
const ASK_EVERY_MS = 60_000;
/**
 * The most pages of open incidents read from one service desk a round (100 each): a backlog
 * beyond that is read on later rounds, as the first pages' incidents are resolved.
 */
export const RECONCILE_MAX_PAGES = 20;

const KEY = /^cm-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/**
 * Mends resolves that were missed, from both sides. Ours: an incident still open here whose room
 * alert has ended (its recovery message gave up while the service desk was down for hours, or the
 * room was deleted). The service desk's: its open incidents with a correlation key of ours, read
 * page by page, whose alert has ended here while no row tracks the incident (opened by an attempt
 * that died before recording it, or its row lost); a key naming no alert here is left alone, as
 * another installation sharing the instance may own it. Each gets an `incident.reconcile`
 * delivery, which the relay sends like any other (retried, logged), and which resolves it unless
 * someone closed it. Each round is done by one replica: the round's
 * time is claimed in `scheduled_runs` by a conditional update, on the deliveries' clock (a test
 * moves it).
 */
@Injectable()
export class IncidentReconciler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(IncidentReconciler.name);
  private readonly task = new PeriodicTask(
    () => this.tick(),
    (error) => this.logger.warn(`Reconciling incidents failed: ${String(error)}`),
  );

  constructor(
    @Inject(DELIVERY_CLOCK) private readonly clock: DeliveryClock,
    private readonly incidents: IncidentRepository,
    private readonly deliveries: DeliveryRepository,
    private readonly relay: DeliveryRelay,
    private readonly sync: IncidentSync,
  ) {}

  onApplicationBootstrap(): void {
    this.task.start(ASK_EVERY_MS);
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.task.stop();
  }

  /** A round if one is due and this replica claimed it; the number of incidents queued to mend. */
  async tick(): Promise<number | null> {
    if (!(await this.incidents.claimRun('incident-reconcile', this.clock.now(), RECONCILE_EVERY_MS)))
      return null;
    const missed = await this.incidents.unresolved();
    const items = missed.map(({ channelId, alertId, number, gone }) => ({
      channelId,
      // An alert that is gone (its room deleted) cannot be named by the delivery's foreign key.
      alertId: gone ? null : alertId,
      content: {
        kind: 'incident.reconcile',
        text: `Resolving ${number ?? 'the incident'}: the room's alert has ended`,
        data: { alertId },
      },
    }));
    items.push(...(await this.fromDesks()));
    await this.deliveries.enqueue(items);
    if (items.length > 0) {
      this.logger.log(`Reconciliation: ${items.length} incident(s) whose room recovered are being resolved`);
      this.relay.kick();
    }
    return items.length;
  }

  /** The service desks' open incidents of ours that we lost track of and whose alert ended. */
  private async fromDesks() {
    const items = [];
    for (const channel of await this.incidents.deskChannels()) {
      let open: { key: string; number: string }[];
      try {
        open = await this.sync.openRemote(channel, RECONCILE_MAX_PAGES);
      } catch (error) {
        // This channel's next round tries again; the others go on.
        this.logger.warn(
          `Reconciliation could not list the open incidents of "${channel.name}": ${error instanceof Error ? error.message : String(error)}`,
        );
        continue;
      }
      const numbers = new Map<string, string>();
      for (const { key, number } of open) {
        const alertId = KEY.exec(key)?.[1]?.toLowerCase();
        if (alertId && !numbers.has(alertId)) numbers.set(alertId, number);
      }
      for (const alertId of await this.incidents.lostTrack(channel.id, [...numbers.keys()])) {
        items.push({
          channelId: channel.id,
          alertId,
          content: {
            kind: 'incident.reconcile',
            text: `Resolving ${numbers.get(alertId)}: the room's alert has ended`,
            data: { alertId },
          },
        });
      }
    }
    return items;
  }
}
