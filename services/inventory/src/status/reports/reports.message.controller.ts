import { type MessagePayload, messages } from '@cm/contracts';
import { HandleMessage } from '@cm/platform';
import { Controller } from '@nestjs/common';
import { ReportsService } from './reports.service';

@Controller()
export class ReportsMessageController {
  constructor(private readonly reports: ReportsService) {}

  @HandleMessage(messages.inventory.report)
  page(request: MessagePayload<typeof messages.inventory.report>) {
    return this.reports.page(request);
  }
}
