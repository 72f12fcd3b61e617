import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream } from 'node:stream/web';
import { ErrorCode, messages, objectKeyPattern } from '@cm/contracts';
import { AppError, RpcClient } from '@cm/platform';
import { Controller, Get, Logger, Param, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { isNotModified } from './conditional';

/** How long the store may take to start answering a download. */
const STORE_ANSWER_MS = 10_000;

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
  // Not an API route: no contract names its wildcard, which Express gives as the path's segments.
  // eslint-disable-next-line no-restricted-syntax
  async serve(@Param('key') segments: string | string[], @Req() req: Request, @Res() res: Response) {
    const key = Array.isArray(segments) ? segments.join('/') : segments;
    if (!objectKeyPattern.test(key)) throw notFound();
    const object = await this.rpc.send(messages.media.getObject, { key });

    const lastModified = new Date(object.lastModified);
    const setValidators = () => {
      res.setHeader('ETag', object.etag);
      res.setHeader('Last-Modified', lastModified.toUTCString());
      res.setHeader('Cache-Control', 'private, max-age=31536000, immutable');
    };
    if (isNotModified(req.headers, object.etag, lastModified)) {
      setValidators();
      res.status(304).end();
      return;
    }

    const upstream = await this.open(object.url);
    if (!upstream?.ok || !upstream.body) {
      await upstream?.body?.cancel();
      if (upstream?.status === 404) throw notFound();
      this.logger.warn(`Object store answered ${upstream?.status ?? 'nothing'} for ${key}`);
      throw new AppError(ErrorCode.SERVICE_UNAVAILABLE, 'The file cannot be read just now. Try again.');
    }
    // The length sent is the registered one: bytes changed in the store behind media's back would
    // not fit it, and what is sent past a Content-Length reads as a second response on the
    // connection. So the store's copy must be the registered one, before any header goes out.
    const storedLength = upstream.headers.get('content-length');
    const storedEtag = upstream.headers.get('etag');
    if (storedLength !== String(object.size) || storedEtag !== object.etag) {
      await upstream.body.cancel();
      this.logger.warn(
        `Object ${key} in the store (${storedLength ?? '?'} bytes, ETag ${storedEtag ?? 'none'}) is not the one registered (${object.size} bytes, ETag ${object.etag}): not served`,
      );
      throw new AppError(
        ErrorCode.CONFLICT,
        'This file was changed in the file store after it was uploaded, so it is not shown. Upload the picture again.',
      );
    }
    setValidators();
    res.setHeader('X-Content-Type-Options', 'nosniff');
    // Opened directly, an object is a picture and nothing else.
    res.setHeader('Content-Security-Policy', "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'");
    res.status(200);
    res.setHeader('Content-Type', object.contentType);
    res.setHeader('Content-Length', String(object.size));
    // Node then fails the response rather than write a byte more (or end on fewer) than it states.
    res.strictContentLength = true;
    await pipeline(Readable.fromWeb(upstream.body as ReadableStream), res).catch((error: unknown) => {
      // The client went away mid-stream: nothing to answer.
      this.logger.debug?.(`Stream of ${key} ended early: ${String(error)}`);
    });
  }

  /** The store's answer to a download URL, or null when it gives none in STORE_ANSWER_MS. */
  private async open(url: string): Promise<globalThis.Response | null> {
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), STORE_ANSWER_MS);
    try {
      // Compressed, the bytes would not be the ones whose length and ETag were registered.
      return await fetch(url, { signal: abort.signal, headers: { 'accept-encoding': 'identity' } });
    } catch {
      return null;
    } finally {
      // Only the answer is timed: a large picture to a slow client streams as long as it takes.
      clearTimeout(timer);
    }
  }
}
