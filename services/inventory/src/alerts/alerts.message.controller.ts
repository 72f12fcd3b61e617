import { messages, type OpenAlertQuery } from '@cm/contracts';
import { HandleMessage } from '@cm/platform';
import { Controller } from '@nestjs/common';
import { found, notFound } from '../database/not-found';
import { AlertRepository } from './alert.repository';

@Controller()
export class AlertsMessageController {
  constructor(private readonly alerts: AlertRepository) {}

  @HandleMessage(messages.inventory.listOpenAlerts)
  async listOpen(query: OpenAlertQuery) {
    return found(await this.alerts.listOpen(query), () =>
      query.roomId ? notFound.room(query.roomId) : notFound.building(query.buildingId!),
    );
  }
}
