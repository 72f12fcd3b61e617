import { Module } from '@nestjs/common';
import { AlertsModule } from './alerts/alerts.module';
import { NotificationsModule } from './notifications/notifications.module';

/** Telling people: room alerts, their quiet hours, notification channels and deliveries. */
@Module({ imports: [AlertsModule, NotificationsModule] })
export class AlertingModule {}
