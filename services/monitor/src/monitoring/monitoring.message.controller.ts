import { patterns } from '@cm/contracts';
import { Controller } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { MonitoringService } from './monitoring.service';

@Controller()
export class MonitoringMessageController {
  constructor(private readonly monitoring: MonitoringService) {}

  @MessagePattern(patterns.monitor.status)
  status() {
    return this.monitoring.status();
  }

  @MessagePattern(patterns.monitor.start)
  start() {
    return this.monitoring.start();
  }

  @MessagePattern(patterns.monitor.stop)
  stop() {
    return this.monitoring.stop();
  }

  @MessagePattern(patterns.monitor.check)
  check() {
    return this.monitoring.check();
  }
}
