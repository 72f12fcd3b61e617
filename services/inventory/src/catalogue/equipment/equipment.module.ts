import { Module } from '@nestjs/common';
import { EquipmentLive } from './equipment-live';
import { EquipmentRepository } from './equipment.repository';
import { EquipmentMessageController } from './equipment.message.controller';
import { EquipmentService } from './equipment.service';
import { ProbeTargetsMessageController } from './probe-targets.message.controller';
import { ProbeRepository } from './probe.repository';
import { ProbeService } from './probe.service';

/** What follows an edit reacts to its events: `EquipmentLive` here, the outbox relay, alerting's `EquipmentAlerts`. */
@Module({
  controllers: [EquipmentMessageController, ProbeTargetsMessageController],
  providers: [EquipmentRepository, EquipmentService, EquipmentLive, ProbeRepository, ProbeService],
})
export class EquipmentModule {}
