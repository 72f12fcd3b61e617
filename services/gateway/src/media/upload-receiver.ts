import http from 'node:http';
import https from 'node:https';
import { type Readable } from 'node:stream';
import {
  detectImageType,
  ErrorCode,
  IMAGE_SNIFF_BYTES,
  MAX_UPLOAD_BYTES,
  mediaMessages,
  messages,
  type UploadResult,
  type UploadSession,
} from '@cm/contracts';
import { AppError, CONFIG, RpcClient } from '@cm/platform';
import { Inject, Injectable, Logger } from '@nestjs/common';
import busboy from 'busboy';
import type { Request } from 'express';
import { type Config } from '../config';
import { type IdleTimer, type IdleTimers, UPLOAD_IDLE_TIMERS } from '../http/idle-timers';
import { drain } from './drain';
import { UploadSlots } from './upload-slots';

const PART_TIMEOUT_MS = 60_000;
const COMPLETE_TIMEOUT_MS = 30_000;

/** Room for the multipart envelope (boundaries, part headers) around a file at the limit. */
const ENVELOPE_BYTES = 64 * 1024;

const noFile = () => new AppError(ErrorCode.NO_FILE, mediaMessages.noFile);
const tooLarge = () => new AppError(ErrorCode.FILE_TOO_LARGE, mediaMessages.tooLarge);
const notAnImage = () => new AppError(ErrorCode.NOT_AN_IMAGE, mediaMessages.notAnImage);
const truncated = () => new AppError(ErrorCode.VALIDATION_FAILED, mediaMessages.truncated);
const idle = () => new AppError(ErrorCode.UPLOAD_TIMEOUT, mediaMessages.idle);
const storeFailed = () =>
  new AppError(ErrorCode.SERVICE_UNAVAILABLE, 'The file could not be stored just now. Try again.');

/**
 * Streams the one file of a multipart upload into the object store, never holding more than one
 * part (5 MB) of it: the first bytes decide whether it is an image, media opens an S3 multipart
 * upload and signs a URL per part, and each part is PUT as soon as it is full. Uploads at once
 * are limited (UploadSlots), and a client that sends nothing for UPLOAD_IDLE_TIMEOUT_MS while we
 * wait for it is answered 408. A refused request is read to its end (up to twice the limit) so
 * that the client receives the answer.
 */
@Injectable()
export class UploadReceiver {
  private readonly logger = new Logger(UploadReceiver.name);
  private readonly idleMs: number;

  constructor(
    private readonly rpc: RpcClient,
    private readonly slots: UploadSlots,
    @Inject(CONFIG) config: Config,
    @Inject(UPLOAD_IDLE_TIMERS) private readonly timers: IdleTimers,
  ) {
    this.idleMs = config.UPLOAD_IDLE_TIMEOUT_MS;
  }

  /** `user` is whose slots the upload counts against; `ownerId` is recorded with the object. */
  async receive(req: Request, user: string, ownerId: string | null): Promise<UploadResult> {
    if (Number(req.headers['content-length']) > MAX_UPLOAD_BYTES + ENVELOPE_BYTES) {
      await drain(req, this.idleMs);
      throw tooLarge();
    }
    let release: () => void;
    try {
      release = this.slots.take(user);
    } catch (error) {
      // Answered at once; what the client still sends is read and dropped.
      void drain(req, this.idleMs);
      throw error;
    }
    try {
      return await this.receiveForm(req, ownerId);
    } finally {
      release();
    }
  }

  private async receiveForm(req: Request, ownerId: string | null): Promise<UploadResult> {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        limits: { files: 1, fileSize: MAX_UPLOAD_BYTES + 1, fields: 10, fieldSize: 1024, parts: 20 },
      });
    } catch {
      await drain(req, this.idleMs);
      throw noFile();
    }
    return new Promise<UploadResult>((resolve, reject) => {
      let work: Promise<void> | null = null;
      let current: Readable | null = null;
      const fail = async (error: unknown) => {
        beforeFile.clear();
        req.off('data', onData);
        req.unpipe(parser);
        if ((error as AppError).code === ErrorCode.UPLOAD_TIMEOUT) {
          // The client sends nothing: there is nothing to read, and the connection goes.
          req.res?.setHeader('Connection', 'close');
        } else {
          await drain(req, this.idleMs);
        }
        reject(error);
      };
      // Until the file starts, any bytes count; from then on, store() watches its own reads.
      const beforeFile = this.timers.start(this.idleMs, () => void fail(idle()));
      const onData = () => beforeFile.refresh();
      req.on('data', onData);
      parser.on('file', (name, file) => {
        if (name !== 'file' || work) {
          file.resume();
          return;
        }
        beforeFile.clear();
        req.off('data', onData);
        current = file;
        work = this.store(file, ownerId).then(resolve, fail);
      });
      const malformed = () => new AppError(ErrorCode.VALIDATION_FAILED, 'The multipart form is malformed.');
      parser.on('error', () => {
        if (work) current?.destroy(truncated());
        else void fail(malformed());
      });
      // A client that goes away must not leave the upload (and its slot) waiting for bytes forever.
      req.once('close', () => {
        if (req.readableEnded) return;
        const interrupted = new AppError(ErrorCode.VALIDATION_FAILED, 'The upload was interrupted.');
        if (work) current?.destroy(interrupted);
        else void fail(interrupted);
      });
      parser.on('close', () => {
        beforeFile.clear();
        if (!work) reject(noFile());
      });
      req.pipe(parser);
    });
  }

  private async store(file: Readable, ownerId: string | null): Promise<UploadResult> {
    const chunks = file[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
    let total = 0;
    const next = async (): Promise<Buffer | null> => {
      const chunk = await this.readOrTimeOut(file, chunks);
      if (chunk.done) return null;
      total += chunk.value.length;
      if (total > MAX_UPLOAD_BYTES) throw tooLarge();
      return chunk.value;
    };

    const head: Buffer[] = [];
    for (let chunk = await next(); chunk; chunk = total < IMAGE_SNIFF_BYTES ? await next() : null) {
      head.push(chunk);
    }
    if (total === 0) throw noFile();
    const contentType = detectImageType(Buffer.concat(head).subarray(0, IMAGE_SNIFF_BYTES));
    if (!contentType) throw notAnImage();

    const session = await this.rpc.send(messages.media.createUpload, { contentType, ownerId });
    const parts: { partNumber: number; etag: string }[] = [];
    // One buffer per upload, refilled for every part: garbage does not grow with the file.
    const part = Buffer.allocUnsafe(session.partSize);
    let filled = 0;
    const append = async (chunk: Buffer) => {
      for (let offset = 0; offset < chunk.length;) {
        const copied = chunk.copy(part, filled, offset);
        filled += copied;
        offset += copied;
        if (filled === part.length) {
          parts.push(await this.putPart(session, parts.length + 1, part));
          filled = 0;
        }
      }
    };
    try {
      for (const chunk of head) await append(chunk);
      for (let chunk = await next(); chunk; chunk = await next()) await append(chunk);
      if (filled > 0 || parts.length === 0) {
        parts.push(await this.putPart(session, parts.length + 1, part.subarray(0, filled)));
      }
      // Joining up to ten 5 MB parts can take the store longer than an ordinary request.
      await this.rpc.send(
        messages.media.completeUpload,
        { key: session.key, uploadId: session.uploadId, parts },
        { timeoutMs: COMPLETE_TIMEOUT_MS },
      );
    } catch (error) {
      await this.rpc
        .send(messages.media.abortUpload, { key: session.key, uploadId: session.uploadId })
        .catch(() => undefined);
      throw error;
    }
    return { url: `/objects/${session.key}` };
  }

  /**
   * The next chunk of the file, or 408 when the client sends nothing for the idle timeout. Any
   * other failure of the file stream is busboy's (the body ended before the file did): 400.
   */
  private async readOrTimeOut(file: Readable, chunks: AsyncIterator<Buffer>) {
    let timer: IdleTimer | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = this.timers.start(this.idleMs, () => {
        const error = idle();
        file.destroy(error);
        reject(error);
      });
    });
    try {
      return await Promise.race([chunks.next(), timedOut]);
    } catch (error) {
      throw error instanceof AppError ? error : truncated();
    } finally {
      timer?.clear();
    }
  }

  /** node:http rather than fetch, which copies a Buffer body before sending it. */
  private async putPart(session: UploadSession, partNumber: number, body: Buffer) {
    const url = session.partUrls[partNumber - 1];
    if (!url) throw tooLarge();
    const { status, etag } = await put(url, body).catch((error: unknown) => {
      this.logger.warn(`Object store unreachable for part ${partNumber}: ${String(error)}`);
      throw storeFailed();
    });
    if (status !== 200 || !etag) {
      this.logger.warn(`Object store answered ${status} to part ${partNumber}`);
      throw storeFailed();
    }
    return { partNumber, etag };
  }
}

function put(url: string, body: Buffer): Promise<{ status: number; etag: string | undefined }> {
  const send = url.startsWith('https:') ? https.request : http.request;
  return new Promise((resolve, reject) => {
    const req = send(
      url,
      { method: 'PUT', headers: { 'content-length': body.length }, timeout: PART_TIMEOUT_MS },
      (res) => {
        res.resume();
        res.once('end', () => resolve({ status: res.statusCode ?? 0, etag: res.headers.etag }));
        res.once('error', reject);
      },
    );
    req.once('timeout', () => req.destroy(new Error(`no answer within ${PART_TIMEOUT_MS} ms`)));
    req.once('error', reject);
    req.end(body);
  });
}
