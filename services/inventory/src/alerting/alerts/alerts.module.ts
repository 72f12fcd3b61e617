import { Global, Module } from '@nestjs/common';
import { CHECK_ALERTS, ChecksModule, HEALTH_ALERTS, MaintenanceModule } from '../../status';
import { NotificationsModule } from '../notifications/notifications.module';
import { AlertEngine } from './alert-engine.service';
import { AlertQueue } from './alert-queue.service';
import { AlertRepository } from './alert.repository';
import { AlertsMessageController } from './alerts.message.controller';
import { EquipmentAlerts } from './equipment-alerts.service';
import { FaultAlertRepository } from './fault-alert.repository';
import { FaultAlerts } from './fault-alerts.service';
import { QuietHoursRepository } from './quiet-hours.repository';
import { RoomClassRepository } from './room-class.repository';

/**
 * The alert engine, and the fault alerts of device health. Global for what they provide to status
 * under the tokens status declares: the status and health batches call them in their transactions
 * without importing a context above their own. Equipment
 * edits reach it through their events (`EquipmentAlerts`).
 */
@Global()
@Module({
  imports: [ChecksModule, MaintenanceModule, NotificationsModule],
  controllers: [AlertsMessageController],
  providers: [
    AlertRepository,
    QuietHoursRepository,
    RoomClassRepository,
    AlertQueue,
    AlertEngine,
    EquipmentAlerts,
    FaultAlertRepository,
    FaultAlerts,
    { provide: CHECK_ALERTS, useExisting: AlertEngine },
    { provide: HEALTH_ALERTS, useExisting: FaultAlerts },
  ],
  exports: [CHECK_ALERTS, HEALTH_ALERTS],
})
export class AlertsModule {}
