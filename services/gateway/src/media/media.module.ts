import { Module } from '@nestjs/common';
import { idleTimersProvider, UPLOAD_IDLE_TIMERS } from '../http/idle-timers';
import { MediaController } from './media.controller';
import { ObjectsController } from './objects.controller';
import { StoreProxy } from './store-proxy';
import { UploadReceiver } from './upload-receiver';
import { UploadSignature } from './upload-signature';
import { UploadSlots } from './upload-slots';

/**
 * Uploads (`/api/upload`, `/api/objects/upload`, `/api/room-images`, and `/store/…`, which
 * gateway.ts mounts ahead of the body parsers) and downloads (`/objects/…`).
 */
@Module({
  controllers: [MediaController, ObjectsController],
  providers: [
    UploadReceiver,
    UploadSlots,
    UploadSignature,
    StoreProxy,
    idleTimersProvider(UPLOAD_IDLE_TIMERS),
  ],
})
export class MediaModule {}
