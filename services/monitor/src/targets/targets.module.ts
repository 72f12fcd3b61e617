import { Module } from '@nestjs/common';
import { TargetList } from './target-list';

@Module({ providers: [TargetList], exports: [TargetList] })
export class TargetsModule {}
