import { Module } from '@nestjs/common';
import { AlertsModule } from './alerts/alerts.module';
import { NotificationsModule } from './notifications/notifications.module';
import { MorningSummaryModule } from './summary/morning-summary.module';

/**
 * Telling people: room alerts, their quiet hours, notification channels and deliveries, and the
 * morning readiness summary.
 */
@Module({ imports: [AlertsModule, NotificationsModule, MorningSummaryModule] })
export class AlertingModule {}
