import { type MessagePayload, messages } from '@cm/contracts';
import { HandleMessage } from '@cm/platform';
import { Controller } from '@nestjs/common';
import { ReportStreams } from './report-streams';
import { ReportsService } from './reports.service';

@Controller()
export class ReportsMessageController {
  constructor(
    private readonly reports: ReportsService,
    private readonly streams: ReportStreams,
  ) {}

  @HandleMessage(messages.inventory.report)
  page(request: MessagePayload<typeof messages.inventory.report>) {
    return this.reports.page(request);
  }

  @HandleMessage(messages.inventory.openReport)
  open(request: MessagePayload<typeof messages.inventory.openReport>) {
    return this.streams.open(request);
  }
}
