import { Module } from '@nestjs/common';
import { readinessClockProvider } from './readiness-config';
import { ReadinessMessageController } from './readiness.message.controller';
import { ReadinessRepository } from './readiness.repository';
import { ReadinessService } from './readiness.service';

/** Readiness before classes (issue 38): reads the schedules' classes, runs the monitor's room check. */
@Module({
  controllers: [ReadinessMessageController],
  providers: [ReadinessRepository, ReadinessService, readinessClockProvider],
})
export class ReadinessModule {}
