import { type MessagePayload, messages } from '@cm/contracts';
import { HandleMessage } from '@cm/platform';
import { Controller } from '@nestjs/common';
import { HistoryService } from './history.service';

@Controller()
export class HistoryMessageController {
  constructor(private readonly history: HistoryService) {}

  @HandleMessage(messages.inventory.equipmentHistory)
  get(request: MessagePayload<typeof messages.inventory.equipmentHistory>) {
    return this.history.get(request);
  }
}
