import { messages, type RoomCheckRequest } from '@cm/contracts';
import { HandleMessage } from '@cm/platform';
import { Controller } from '@nestjs/common';
import { RoomCheckService } from '../room-check/room-check.service';
import { MonitoringService } from './monitoring.service';

@Controller()
export class MonitoringMessageController {
  constructor(
    private readonly monitoring: MonitoringService,
    private readonly rooms: RoomCheckService,
  ) {}

  @HandleMessage(messages.monitor.status)
  status() {
    return this.monitoring.status();
  }

  @HandleMessage(messages.monitor.start)
  start() {
    return this.monitoring.start();
  }

  @HandleMessage(messages.monitor.stop)
  stop() {
    return this.monitoring.stop();
  }

  @HandleMessage(messages.monitor.check)
  check() {
    return this.monitoring.check();
  }

  @HandleMessage(messages.monitor.checkRoom)
  checkRoom(request: RoomCheckRequest) {
    return this.rooms.check(request);
  }
}
