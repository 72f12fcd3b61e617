import { messages, type OpenAlertQuery, type QuietHoursMessage } from '@cm/contracts';
import { HandleMessage } from '@cm/platform';
import { Controller } from '@nestjs/common';
import { found, notFound } from '../../shared/database/not-found';
import { withParent } from '../../shared/database/sql';
import { IncidentRepository } from '../notifications/service-desk/incident.repository';
import { AlertRepository } from './alert.repository';
import { QuietHoursRepository } from './quiet-hours.repository';

@Controller()
export class AlertsMessageController {
  constructor(
    private readonly alerts: AlertRepository,
    private readonly quietHours: QuietHoursRepository,
    private readonly incidents: IncidentRepository,
  ) {}

  @HandleMessage(messages.inventory.listOpenAlerts)
  async listOpen(query: OpenAlertQuery) {
    const open = found(await this.alerts.listOpen(query), () =>
      query.roomId ? notFound.room(query.roomId) : notFound.building(query.buildingId!),
    );
    const refs = await this.incidents.refs(open.map((a) => a.id));
    return open.map((alert) => ({
      ...alert,
      incidents: refs.filter((r) => r.alertId === alert.id).map(({ alertId: _alertId, ...ref }) => ref),
    }));
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
