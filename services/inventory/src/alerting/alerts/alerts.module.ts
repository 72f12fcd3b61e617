import { Global, Module } from '@nestjs/common';
import { EQUIPMENT_WATCH } from '../../catalogue';
import { CHECK_ALERTS, ChecksModule, MaintenanceModule } from '../../status';
import { NotificationsModule } from '../notifications/notifications.module';
import { AlertEngine } from './alert-engine.service';
import { AlertRepository } from './alert.repository';
import { AlertsMessageController } from './alerts.message.controller';
import { EquipmentAlerts } from './equipment-alerts.service';
import { QuietHoursRepository } from './quiet-hours.repository';

/**
 * The alert engine. Global for what it provides to the contexts below it, under the tokens they
 * declare: the status batch and the equipment edits call it in their transactions without
 * importing a context above their own.
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
    { provide: EQUIPMENT_WATCH, useExisting: EquipmentAlerts },
  ],
  exports: [CHECK_ALERTS, EQUIPMENT_WATCH],
})
export class AlertsModule {}
