import { Global, Module } from '@nestjs/common';
import { CHECK_ALERTS, ChecksModule, MaintenanceModule } from '../../status';
import { NotificationsModule } from '../notifications/notifications.module';
import { AlertEngine } from './alert-engine.service';
import { AlertRepository } from './alert.repository';
import { AlertsMessageController } from './alerts.message.controller';
import { EquipmentAlerts } from './equipment-alerts.service';
import { QuietHoursRepository } from './quiet-hours.repository';

/**
 * The alert engine. Global for what it provides to status under the token status declares: the
 * status batch calls it in its transaction without importing a context above its own. Equipment
 * edits reach it through their events (`EquipmentAlerts`).
 */
@Global()
@Module({
  imports: [ChecksModule, MaintenanceModule, NotificationsModule],
  controllers: [AlertsMessageController],
  providers: [
    AlertRepository,
    QuietHoursRepository,
    AlertEngine,
    EquipmentAlerts,
    { provide: CHECK_ALERTS, useExisting: AlertEngine },
  ],
  exports: [CHECK_ALERTS],
})
export class AlertsModule {}
