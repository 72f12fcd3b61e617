import { Module } from '@nestjs/common';
import { MediaController } from './media.controller';
import { ObjectsController } from './objects.controller';
import { UploadReceiver } from './upload-receiver';
import { UploadSlots } from './upload-slots';

/** Uploads (`/api/upload`, `/api/objects/upload`, `/api/room-images`) and downloads (`/objects/…`). */
@Module({ controllers: [MediaController, ObjectsController], providers: [UploadReceiver, UploadSlots] })
export class MediaModule {}
