import { CONFIG } from '@cm/platform';
import { Inject, Injectable } from '@nestjs/common';
import { type Config } from '../../config';
import { type Transaction } from '../../shared/database/table.repository';
import { DELIVERY_CLOCK, type DeliveryClock } from '../notifications/delivery-clock';
import { DeliveryRepository } from '../notifications/delivery.repository';
import { type AlertMessage, type AlertRoom, digestMessage } from './alert-rules';
import { AlertRepository } from './alert.repository';
import { URGENT_LEAD_MS, withClass } from './class-urgency';
import { isTeaching, localDayEnd, nextMorning, nextTeachingStart } from './quiet-hours';
import { RoomClassRepository } from './room-class.repository';

/**
 * Queues an alert message to every enabled channel of the room's building (or of the whole
 * campus), in the deciding transaction. Outside the building's teaching hours the message is a
 * line of its digest, or nothing. Openings and updates of a room alert wait its group window.
 * A room with a class in progress or starting within 30 minutes (the class schedules) gets its
 * messages at any hour, marked urgent and naming the class (`withClass`). A building that holds
 * idle rooms (`idleRoomsWait`) puts the messages of a room with no more classes that day in the
 * next morning's digest, in teaching hours too: nobody needs the room before then.
 */
@Injectable()
export class AlertQueue {
  constructor(
    private readonly alerts: AlertRepository,
    private readonly deliveries: DeliveryRepository,
    private readonly classes: RoomClassRepository,
    @Inject(DELIVERY_CLOCK) private readonly clock: DeliveryClock,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  /** Answers how many deliveries it queued; channels in `skip` (their message was rewritten) get none. */
  async queue(
    tx: Transaction,
    room: AlertRoom,
    message: AlertMessage,
    {
      alertId = null,
      skip = new Set<string>(),
    }: { alertId?: string | null; skip?: ReadonlySet<string> } = {},
  ): Promise<number> {
    const channels = (await this.alerts.channelsOf(tx, room.buildingId)).filter((id) => !skip.has(id));
    const now = this.clock.now().getTime();
    const content = withClass(
      message,
      await this.classes.classAt(tx, room.id, new Date(now), URGENT_LEAD_MS),
    );
    const quiet = await this.alerts.quietHoursOf(tx, room.buildingId);
    if (quiet && !content.class && !isTeaching(quiet, now)) {
      if (quiet.outside === 'digest') {
        await this.alerts.addToDigest(tx, room.buildingId, channels, {
          digest: digestMessage(room, content),
          line: content.text,
          dueAt: nextTeachingStart(quiet, now),
        });
      }
      return 0;
    }
    if (quiet?.idleRoomsWait && !content.class) {
      const dayEnd = localDayEnd(quiet.timeZone, now);
      if (await this.classes.idleUntil(tx, room.id, new Date(now), new Date(dayEnd))) {
        await this.alerts.addToDigest(tx, room.buildingId, channels, {
          digest: digestMessage(room, content, 'held'),
          line: `${content.text} (no more classes today)`,
          dueAt: nextMorning(quiet, now),
        });
        return 0;
      }
    }
    const grouped = content.kind === 'alert.opened' || content.kind === 'alert.updated';
    const ids = await this.deliveries.enqueue(
      channels.map((channelId) => ({
        channelId,
        content,
        alertId,
        delayMs: grouped ? this.config.ALERT_GROUP_WINDOW_MS : 0,
      })),
      tx,
    );
    return ids.length;
  }
}
