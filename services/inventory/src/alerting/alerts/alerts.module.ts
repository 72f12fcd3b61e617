import { Module } from '@nestjs/common';
import { MaintenanceModule } from '../../status/maintenance/maintenance.module';
import { NotificationsModule } from '../notifications/notifications.module';
import { AlertRepository } from './alert.repository';
import { AlertsMessageController } from './alerts.message.controller';
import { QuietHoursRepository } from './quiet-hours.repository';

/** The alert engine; the status batch and the equipment edits call it in their transactions. */
@Module({
  imports: [MaintenanceModule, NotificationsModule],
  controllers: [AlertsMessageController],
  providers: [AlertRepository, QuietHoursRepository],
  exports: [AlertRepository, NotificationsModule],
})
export class AlertsModule {}
