import { Module } from '@nestjs/common';
import { ReportRepository } from './report.repository';
import { ReportStreams } from './report-streams';
import { ReportsMessageController } from './reports.message.controller';
import { ReportsService } from './reports.service';

@Module({
  controllers: [ReportsMessageController],
  providers: [ReportRepository, ReportsService, ReportStreams],
})
export class ReportsModule {}
