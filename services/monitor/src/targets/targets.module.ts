import { Module } from '@nestjs/common';
import { EquipmentChanges } from './equipment-changes';
import { TargetList } from './target-list';

@Module({ providers: [EquipmentChanges, TargetList], exports: [EquipmentChanges, TargetList] })
export class TargetsModule {}
