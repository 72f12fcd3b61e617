import { messages } from '@cm/contracts';
import { HandleMessage } from '@cm/platform';
import { Controller } from '@nestjs/common';
import { ProblemsRepository } from './problems.repository';

@Controller()
export class ProblemsMessageController {
  constructor(private readonly problems: ProblemsRepository) {}

  @HandleMessage(messages.inventory.listProblems)
  list() {
    return this.problems.list();
  }
}
