import { Module } from '@nestjs/common';
import { MonitoringController } from './monitoring.controller';

/** Monitoring state, Start, Stop and Check Now, each a call to the monitor service. */
@Module({ controllers: [MonitoringController] })
export class MonitoringModule {}
