import { ErrorCode, messages, type ReadinessSummarySettings } from '@cm/contracts';
import { AppError, CONFIG, HandleMessage } from '@cm/platform';
import {
  type BeforeApplicationShutdown,
  Controller,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { type Config } from '../../config';
import { PeriodicTask } from '../../shared/periodic-task';
import { localDayEnd } from '../alerts/quiet-hours';
import { DELIVERY_CLOCK, type DeliveryClock } from '../notifications/delivery-clock';
import { DeliveryRepository } from '../notifications/delivery.repository';
import { DeliveryRelay } from '../notifications/delivery.relay';
import { dueDay, summaryMessage } from './morning-summary';
import { MorningSummaryRepository } from './morning-summary.repository';

/**
 * The morning readiness summary: once a day at its time, the rooms with classes the rest of the
 * day and which are at risk (a device offline or partly answering now) go to the chosen channels,
 * through the delivery outbox (retried like any message). The day's row, inserted in the
 * transaction that queues the deliveries, makes one replica send it once. Reads the outbox's clock.
 */
@Injectable()
export class MorningSummary implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(MorningSummary.name);
  private readonly task = new PeriodicTask(
    () => this.round(),
    (error) => this.logger.warn(`The morning summary failed: ${String(error)}`),
  );

  constructor(
    @Inject(CONFIG) private readonly config: Config,
    @Inject(DELIVERY_CLOCK) private readonly clock: DeliveryClock,
    private readonly summaries: MorningSummaryRepository,
    private readonly deliveries: DeliveryRepository,
    private readonly relay: DeliveryRelay,
  ) {}

  onApplicationBootstrap(): void {
    this.task.start(this.config.READINESS_TICK_MS);
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.task.stop();
  }

  async settings(): Promise<ReadinessSummarySettings> {
    return (
      (await this.summaries.settings()) ?? {
        time: null,
        timeZone: this.config.SCHEDULE_TIME_ZONE,
        channelIds: [],
      }
    );
  }

  async set(settings: ReadinessSummarySettings): Promise<ReadinessSummarySettings> {
    const [missing] = await this.summaries.missingChannels(settings.channelIds);
    if (missing)
      throw new AppError(
        ErrorCode.CHANNEL_NOT_FOUND,
        `No notification channel with id ${missing}. It may have been deleted; reload the list.`,
      );
    await this.summaries.set(settings);
    return this.settings();
  }

  /** One round: sends the day's summary when due; a round still running is joined, not doubled. */
  sendDue(): Promise<unknown> {
    return this.task.run();
  }

  private async round(): Promise<void> {
    const settings = await this.summaries.settings();
    const now = this.clock.now();
    const day = settings && dueDay(settings, now.getTime());
    if (!settings || !day) return;
    const queued = await this.summaries.transaction(async (tx) => {
      if (!(await this.summaries.claim(tx, day, now))) return 0;
      const end = new Date(localDayEnd(settings.timeZone, now.getTime()));
      const rooms = await this.summaries.rooms(tx, now, end);
      const channels = await this.summaries.channels(tx, settings.channelIds);
      const items = channels.flatMap((channel) => {
        const covered = channel.buildingIds;
        const content = summaryMessage(
          covered ? rooms.filter((r) => covered.includes(r.building.id)) : rooms,
          day,
          settings.timeZone,
        );
        return content ? [{ channelId: channel.id, content }] : [];
      });
      return (await this.deliveries.enqueue(items, tx)).length;
    });
    if (queued > 0) this.relay.kick();
  }
}

@Controller()
export class MorningSummaryMessageController {
  constructor(private readonly summary: MorningSummary) {}

  @HandleMessage(messages.inventory.getReadinessSummary)
  get() {
    return this.summary.settings();
  }

  @HandleMessage(messages.inventory.setReadinessSummary)
  set(settings: ReadinessSummarySettings) {
    return this.summary.set(settings);
  }
}
