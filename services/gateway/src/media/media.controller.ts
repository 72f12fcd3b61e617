import {
  apiRoutes,
  messages,
  type ObjectPathResult,
  type RoomImageRegister,
  type UploadResult,
  type UploadUrlResult,
} from '@cm/contracts';
import { RpcClient } from '@cm/platform';
import { Body, Controller, Req } from '@nestjs/common';
import type { Request } from 'express';
import { ApiRoute } from '../http/api-route.decorator';
import { ownerOf } from './owner';
import { UploadReceiver } from './upload-receiver';

@Controller()
export class MediaController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly uploads: UploadReceiver,
  ) {}

  @ApiRoute(apiRoutes.upload)
  upload(@Req() req: Request): Promise<UploadResult> {
    return this.uploads.receive(req, ownerOf(req));
  }

  @ApiRoute(apiRoutes.createUploadUrl)
  createUploadUrl(@Req() req: Request): Promise<UploadUrlResult> {
    return this.rpc.send(messages.media.createUploadUrl, { ownerId: ownerOf(req) });
  }

  @ApiRoute(apiRoutes.registerRoomImage)
  registerRoomImage(@Body() body: RoomImageRegister, @Req() req: Request): Promise<ObjectPathResult> {
    return this.rpc.send(messages.media.registerRoomImage, { ...body, ownerId: ownerOf(req) });
  }
}
