import { Module } from '@nestjs/common';
import { SearchMessageController } from './search.message.controller';
import { SearchRepository } from './search.repository';
import { SearchService } from './search.service';

@Module({ controllers: [SearchMessageController], providers: [SearchRepository, SearchService] })
export class SearchModule {}
