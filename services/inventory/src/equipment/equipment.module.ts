import { Module } from '@nestjs/common';
import { EquipmentRepository } from './equipment.repository';
import { EquipmentMessageController } from './equipment.message.controller';
import { EquipmentService } from './equipment.service';

@Module({ controllers: [EquipmentMessageController], providers: [EquipmentRepository, EquipmentService] })
export class EquipmentModule {}
