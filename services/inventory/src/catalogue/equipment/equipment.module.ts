import { Module } from '@nestjs/common';
import { EquipmentRepository } from './equipment.repository';
import { EquipmentMessageController } from './equipment.message.controller';
import { EquipmentService } from './equipment.service';

/** `EQUIPMENT_WATCH` comes from alerting's global module: the catalogue imports no context above it. */
@Module({
  controllers: [EquipmentMessageController],
  providers: [EquipmentRepository, EquipmentService],
})
export class EquipmentModule {}
