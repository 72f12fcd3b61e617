import {
  apiRoutes,
  messages,
  type ObjectPathResult,
  type RouteBody,
  type UploadResult,
  type UploadUrlResult,
} from '@cm/contracts';
import { RpcClient } from '@cm/platform';
import { Body, Controller, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ApiRoute } from '../http/api-route.decorator';
import { ownerOf } from './owner';
import { StoreProxy } from './store-proxy';
import { UploadReceiver } from './upload-receiver';
import { TooManyUploads } from './upload-slots';

@Controller()
export class MediaController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly uploads: UploadReceiver,
    private readonly store: StoreProxy,
  ) {}

  @ApiRoute(apiRoutes.upload)
  upload(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<UploadResult> {
    const owner = ownerOf(req);
    return this.uploads.receive(req, owner ?? req.ip ?? 'unknown', owner).catch((error: unknown) => {
      if (error instanceof TooManyUploads) res.setHeader('Retry-After', String(error.retryAfterSeconds));
      throw error;
    });
  }

  @ApiRoute(apiRoutes.createUploadUrl)
  async createUploadUrl(
    @Body() body: RouteBody<typeof apiRoutes.createUploadUrl>,
    @Req() req: Request,
  ): Promise<UploadUrlResult> {
    const { uploadURL } = await this.rpc.send(messages.media.createUploadUrl, {
      ...body,
      ownerId: ownerOf(req),
    });
    return { uploadURL: this.store.forBrowser(uploadURL, req) };
  }

  @ApiRoute(apiRoutes.registerRoomImage)
  registerRoomImage(
    @Body() body: RouteBody<typeof apiRoutes.registerRoomImage>,
    @Req() req: Request,
  ): Promise<ObjectPathResult> {
    return this.rpc.send(messages.media.registerRoomImage, {
      roomImageURL: this.store.forStore(body.roomImageURL, req),
      ownerId: ownerOf(req),
    });
  }
}
