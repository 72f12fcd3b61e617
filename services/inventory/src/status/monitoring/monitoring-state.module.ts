import { Module } from '@nestjs/common';
import { MonitoringStateMessageController } from './monitoring-state.message.controller';
import { MonitoringStateRepository } from './monitoring-state.repository';

/** The durable copy of the monitor's running state (the monitor has no database of its own). */
@Module({ controllers: [MonitoringStateMessageController], providers: [MonitoringStateRepository] })
export class MonitoringStateModule {}
