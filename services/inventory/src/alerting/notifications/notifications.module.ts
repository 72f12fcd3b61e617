import { Module } from '@nestjs/common';
import { ChannelSender } from './channel-sender';
import { ChannelRepository } from './channel.repository';
import { DELIVERY_CLOCK, deliveryClockProvider } from './delivery-clock';
import { DeliveryRepository } from './delivery.repository';
import { DeliveryRelay } from './delivery.relay';
import { NotificationsMessageController } from './notifications.message.controller';
import { NotificationsService } from './notifications.service';
import { IncidentReconciler } from './service-desk/incident-reconciler';
import { IncidentRepository } from './service-desk/incident.repository';
import { IncidentSync } from './service-desk/incident-sync';
import { WebhookTargets } from './webhook-targets';

/**
 * Notification channels and the delivery outbox. The alert engine queues messages with
 * `DeliveryRepository.enqueue` in its own transaction and kicks `DeliveryRelay`.
 */
@Module({
  controllers: [NotificationsMessageController],
  providers: [
    ChannelRepository,
    DeliveryRepository,
    DeliveryRelay,
    ChannelSender,
    NotificationsService,
    WebhookTargets,
    deliveryClockProvider,
    IncidentRepository,
    IncidentSync,
    IncidentReconciler,
  ],
  exports: [DeliveryRepository, DeliveryRelay, IncidentRepository, DELIVERY_CLOCK],
})
export class NotificationsModule {}
