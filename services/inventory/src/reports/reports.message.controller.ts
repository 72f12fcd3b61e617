import { patterns, reportPageRequestSchema } from '@cm/contracts';
import { ZodPipe } from '@cm/platform';
import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { type z } from 'zod';
import { ReportsService } from './reports.service';

@Controller()
export class ReportsMessageController {
  constructor(private readonly reports: ReportsService) {}

  @MessagePattern(patterns.inventory.report)
  page(@Payload(new ZodPipe(reportPageRequestSchema)) request: z.output<typeof reportPageRequestSchema>) {
    return this.reports.page(request);
  }
}
