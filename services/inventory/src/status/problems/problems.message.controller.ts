import { messages } from '@cm/contracts';
import { HandleMessage } from '@cm/platform';
import { Controller } from '@nestjs/common';
import { FaultsRepository } from './faults.repository';
import { ProblemsRepository } from './problems.repository';

@Controller()
export class ProblemsMessageController {
  constructor(
    private readonly problems: ProblemsRepository,
    private readonly faults: FaultsRepository,
  ) {}

  /** What is down now, and apart from it what answers ping but reports a fault. */
  @HandleMessage(messages.inventory.listProblems)
  async list() {
    return { ...(await this.problems.list()), faults: await this.faults.list() };
  }
}
