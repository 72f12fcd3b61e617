import { messages, type OpenAlertQuery, type QuietHoursMessage } from '@cm/contracts';
import { HandleMessage } from '@cm/platform';
import { Controller } from '@nestjs/common';
import { found, notFound } from '../../shared/database/not-found';
import { withParent } from '../../shared/database/sql';
import { AlertRepository } from './alert.repository';
import { QuietHoursRepository } from './quiet-hours.repository';

@Controller()
export class AlertsMessageController {
  constructor(
    private readonly alerts: AlertRepository,
    private readonly quietHours: QuietHoursRepository,
  ) {}

  @HandleMessage(messages.inventory.listOpenAlerts)
  async listOpen(query: OpenAlertQuery) {
    return found(await this.alerts.listOpen(query), () =>
      query.roomId ? notFound.room(query.roomId) : notFound.building(query.buildingId!),
    );
  }

  @HandleMessage(messages.inventory.getQuietHours)
  async getQuietHours({ buildingId }: { buildingId: string }) {
    return found(await this.quietHours.get(buildingId), () => notFound.building(buildingId));
  }

  @HandleMessage(messages.inventory.setQuietHours)
  async setQuietHours({ buildingId, quietHours }: QuietHoursMessage) {
    await withParent(
      () => this.quietHours.set(buildingId, quietHours),
      () => notFound.building(buildingId),
    );
    return this.getQuietHours({ buildingId });
  }
}
