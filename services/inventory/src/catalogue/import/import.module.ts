import { Module } from '@nestjs/common';
import { ImportMessageController } from './import.message.controller';
import { ImportRepository } from './import.repository';
import { ImportService } from './import.service';

/** The inventory CSV: the export's pages, and imports planned and applied by natural keys. */
@Module({
  controllers: [ImportMessageController],
  providers: [ImportRepository, ImportService],
})
export class ImportModule {}
