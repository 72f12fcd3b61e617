import {
  messages,
  type ObjectLookup,
  type RegisteredObjectsRequest,
  type RoomImageRegistration,
  type UploadAbort,
  type UploadComplete,
  type UploadStart,
  type UploadUrlRequest,
} from '@cm/contracts';
import { HandleMessage } from '@cm/platform';
import { Controller } from '@nestjs/common';
import { ObjectsService } from './objects.service';

@Controller()
export class ObjectsMessageController {
  constructor(private readonly objects: ObjectsService) {}

  @HandleMessage(messages.media.createUpload)
  startUpload(dto: UploadStart) {
    return this.objects.startUpload(dto);
  }

  @HandleMessage(messages.media.completeUpload)
  completeUpload(dto: UploadComplete) {
    return this.objects.completeUpload(dto);
  }

  @HandleMessage(messages.media.abortUpload)
  abortUpload(dto: UploadAbort) {
    return this.objects.abortUpload(dto);
  }

  @HandleMessage(messages.media.createUploadUrl)
  createUploadUrl(dto: UploadUrlRequest) {
    return this.objects.createUploadUrl(dto);
  }

  @HandleMessage(messages.media.findUploadLink)
  findUploadLink(dto: ObjectLookup) {
    return this.objects.findUploadLink(dto);
  }

  @HandleMessage(messages.media.registerRoomImage)
  registerRoomImage(dto: RoomImageRegistration) {
    return this.objects.registerRoomImage(dto);
  }

  @HandleMessage(messages.media.getObject)
  getObject(dto: ObjectLookup) {
    return this.objects.getObject(dto);
  }

  @HandleMessage(messages.media.findRegistered)
  findRegistered(dto: RegisteredObjectsRequest) {
    return this.objects.findRegistered(dto);
  }
}
