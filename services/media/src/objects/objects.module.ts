import { Module } from '@nestjs/common';
import { StorageModule } from '../storage/storage.module';
import { MediaObjectRepository } from './media-object.repository';
import { ObjectsMessageController } from './objects.message.controller';
import { ObjectsService } from './objects.service';
import { UploadCleanupService } from './upload-cleanup.service';

@Module({
  imports: [StorageModule],
  controllers: [ObjectsMessageController],
  providers: [MediaObjectRepository, ObjectsService, UploadCleanupService],
})
export class ObjectsModule {}
