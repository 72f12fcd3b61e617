import { type MessagePayload, messages } from '@cm/contracts';
import { HandleMessage } from '@cm/platform';
import { Controller } from '@nestjs/common';
import { HealthReportsService } from './health-reports.service';

@Controller()
export class HealthReportsMessageController {
  constructor(private readonly reports: HealthReportsService) {}

  @HandleMessage(messages.inventory.consumables)
  consumables({ after, limit }: MessagePayload<typeof messages.inventory.consumables>) {
    return this.reports.consumables(after, limit);
  }

  @HandleMessage(messages.inventory.fleet)
  fleet() {
    return this.reports.fleet();
  }
}
