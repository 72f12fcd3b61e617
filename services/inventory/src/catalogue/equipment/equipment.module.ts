import { Module } from '@nestjs/common';
import { AlertsModule } from '../../alerting/alerts/alerts.module';
import { StatusModule } from '../../status/checks/status.module';
import { EquipmentRepository } from './equipment.repository';
import { EquipmentMessageController } from './equipment.message.controller';
import { EquipmentService } from './equipment.service';

@Module({
  imports: [StatusModule, AlertsModule],
  controllers: [EquipmentMessageController],
  providers: [EquipmentRepository, EquipmentService],
})
export class EquipmentModule {}
