import { Module } from '@nestjs/common';
import { EquipmentLive } from './equipment-live';
import { EquipmentRepository } from './equipment.repository';
import { EquipmentMessageController } from './equipment.message.controller';
import { EquipmentService } from './equipment.service';

/** What follows an edit reacts to its events: `EquipmentLive` here, the outbox relay, alerting's `EquipmentAlerts`. */
@Module({
  controllers: [EquipmentMessageController],
  providers: [EquipmentRepository, EquipmentService, EquipmentLive],
})
export class EquipmentModule {}
