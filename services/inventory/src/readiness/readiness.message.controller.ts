import { messages, type ReadinessQuery } from '@cm/contracts';
import { HandleMessage } from '@cm/platform';
import { Controller } from '@nestjs/common';
import { ReadinessService } from './readiness.service';

@Controller()
export class ReadinessMessageController {
  constructor(private readonly readiness: ReadinessService) {}

  @HandleMessage(messages.inventory.listReadiness)
  list(query: ReadinessQuery) {
    return this.readiness.list(query);
  }
}
