import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream } from 'node:stream/web';
import { ErrorCode, messages, objectKeyPattern } from '@cm/contracts';
import { AppError, RpcClient } from '@cm/platform';
import { Controller, Get, Logger, Param, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { isNotModified } from './conditional';

const notFound = () => new AppError(ErrorCode.OBJECT_NOT_FOUND, 'No such file. It may have been removed.');

/**
 * Photos and diagrams, streamed from the private bucket to signed-in users (the route has no
 * @ApiRoute, so the session guard applies). Keys never change content, so responses are
 * cacheable for a year, privately: they are behind a session.
 */
@Controller()
export class ObjectsController {
  private readonly logger = new Logger(ObjectsController.name);

  constructor(private readonly rpc: RpcClient) {}

  @Get('objects/*key')
  async serve(@Param('key') segments: string | string[], @Req() req: Request, @Res() res: Response) {
    const key = Array.isArray(segments) ? segments.join('/') : segments;
    if (!objectKeyPattern.test(key)) throw notFound();
    const object = await this.rpc.send(messages.media.getObject, { key });

    const lastModified = new Date(object.lastModified);
    res.setHeader('ETag', object.etag);
    res.setHeader('Last-Modified', lastModified.toUTCString());
    res.setHeader('Cache-Control', 'private, max-age=31536000, immutable');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    // Opened directly, an object is a picture and nothing else.
    res.setHeader('Content-Security-Policy', "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'");
    if (isNotModified(req.headers, object.etag, lastModified)) {
      res.status(304).end();
      return;
    }

    const upstream = await fetch(object.url).catch(() => null);
    if (!upstream?.ok || !upstream.body) {
      await upstream?.body?.cancel();
      if (upstream?.status === 404) throw notFound();
      this.logger.warn(`Object store answered ${upstream?.status ?? 'nothing'} for ${key}`);
      throw new AppError(ErrorCode.SERVICE_UNAVAILABLE, 'The file cannot be read just now. Try again.');
    }
    res.status(200);
    res.setHeader('Content-Type', object.contentType);
    res.setHeader('Content-Length', String(object.size));
    await pipeline(Readable.fromWeb(upstream.body as ReadableStream), res).catch((error: unknown) => {
      // The client went away mid-stream: nothing to answer.
      this.logger.debug?.(`Stream of ${key} ended early: ${String(error)}`);
    });
  }
}
