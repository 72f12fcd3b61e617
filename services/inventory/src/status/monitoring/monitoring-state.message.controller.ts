import { messages, type MonitoringStateSave } from '@cm/contracts';
import { HandleMessage } from '@cm/platform';
import { Controller } from '@nestjs/common';
import { MonitoringStateRepository } from './monitoring-state.repository';

@Controller()
export class MonitoringStateMessageController {
  constructor(private readonly state: MonitoringStateRepository) {}

  @HandleMessage(messages.inventory.getMonitoringState)
  get() {
    return this.state.get();
  }

  @HandleMessage(messages.inventory.saveMonitoringState)
  save(request: MonitoringStateSave) {
    return this.state.save(request);
  }
}
