import { Module } from '@nestjs/common';
import { HealthEventsConsumer } from './health-events.consumer';
import { HealthRepository } from './health.repository';
import { HealthService } from './health.service';

/** Equipment health beyond ping: the monitor's probe readings recorded. */
@Module({
  providers: [HealthRepository, HealthService, HealthEventsConsumer],
  exports: [HealthService],
})
export class HealthModule {}
