import { Module } from '@nestjs/common';
import { HistoryMessageController } from './history.message.controller';
import { HistoryRepository } from './history.repository';
import { HistoryService } from './history.service';

@Module({ controllers: [HistoryMessageController], providers: [HistoryRepository, HistoryService] })
export class HistoryModule {}
