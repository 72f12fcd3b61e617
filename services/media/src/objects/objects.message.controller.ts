import {
  objectLookupSchema,
  patterns,
  roomImageRegistrationSchema,
  uploadAbortSchema,
  uploadCompleteSchema,
  uploadStartSchema,
  uploadUrlRequestSchema,
  type ObjectLookup,
  type RoomImageRegistration,
  type UploadAbort,
  type UploadComplete,
  type UploadStart,
  type UploadUrlRequest,
} from '@cm/contracts';
import { ZodPipe } from '@cm/platform';
import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { ObjectsService } from './objects.service';

@Controller()
export class ObjectsMessageController {
  constructor(private readonly objects: ObjectsService) {}

  @MessagePattern(patterns.media.createUpload)
  startUpload(@Payload(new ZodPipe(uploadStartSchema)) dto: UploadStart) {
    return this.objects.startUpload(dto);
  }

  @MessagePattern(patterns.media.completeUpload)
  completeUpload(@Payload(new ZodPipe(uploadCompleteSchema)) dto: UploadComplete) {
    return this.objects.completeUpload(dto);
  }

  @MessagePattern(patterns.media.abortUpload)
  abortUpload(@Payload(new ZodPipe(uploadAbortSchema)) dto: UploadAbort) {
    return this.objects.abortUpload(dto);
  }

  @MessagePattern(patterns.media.createUploadUrl)
  createUploadUrl(@Payload(new ZodPipe(uploadUrlRequestSchema)) dto: UploadUrlRequest) {
    return this.objects.createUploadUrl(dto);
  }

  @MessagePattern(patterns.media.registerRoomImage)
  registerRoomImage(@Payload(new ZodPipe(roomImageRegistrationSchema)) dto: RoomImageRegistration) {
    return this.objects.registerRoomImage(dto);
  }

  @MessagePattern(patterns.media.getObject)
  getObject(@Payload(new ZodPipe(objectLookupSchema)) dto: ObjectLookup) {
    return this.objects.getObject(dto);
  }
}
