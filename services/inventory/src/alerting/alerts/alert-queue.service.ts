import { CONFIG } from '@cm/platform';
import { Inject, Injectable } from '@nestjs/common';
import { type Config } from '../../config';
import { type Transaction } from '../../shared/database/table.repository';
import { DeliveryRepository } from '../notifications/delivery.repository';
import { type AlertMessage, type AlertRoom, digestMessage } from './alert-rules';
import { AlertRepository } from './alert.repository';
import { isTeaching, nextTeachingStart } from './quiet-hours';

/**
 * Queues an alert message to every enabled channel of the room's building (or of the whole
 * campus), in the deciding transaction. Outside the building's teaching hours the message is a
 * line of its digest, or nothing. Openings and updates of a room alert wait its group window.
 */
@Injectable()
export class AlertQueue {
  constructor(
    private readonly alerts: AlertRepository,
    private readonly deliveries: DeliveryRepository,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  /** Answers how many deliveries it queued; channels in `skip` (their message was rewritten) get none. */
  async queue(
    tx: Transaction,
    room: AlertRoom,
    content: AlertMessage,
    {
      alertId = null,
      skip = new Set<string>(),
    }: { alertId?: string | null; skip?: ReadonlySet<string> } = {},
  ): Promise<number> {
    const channels = (await this.alerts.channelsOf(tx, room.buildingId)).filter((id) => !skip.has(id));
    const quiet = await this.alerts.quietHoursOf(tx, room.buildingId);
    const now = Date.now();
    if (quiet && !isTeaching(quiet, now)) {
      if (quiet.outside === 'digest') {
        await this.alerts.addToDigest(tx, room.buildingId, channels, {
          digest: digestMessage(room, content),
          line: content.text,
          dueAt: nextTeachingStart(quiet, now),
        });
      }
      return 0;
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
