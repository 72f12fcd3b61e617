import { ErrorCode } from '@cm/contracts';
import { AppError } from '@cm/platform';
import busboy from 'busboy';
import type { Request } from 'express';
import { type IdleTimers } from '../http/idle-timers';
import { drain } from './drain';

/** Room for the multipart envelope around a file at the limit. */
export const ENVELOPE_BYTES = 64 * 1024;

export interface SingleFileUpload {
  maxBytes: number;
  idleMs: number;
  timers: IdleTimers;
  /** What stops when nothing arrives for idleMs: "the import", "the upload". */
  work: string;
  invalid: (message: string) => AppError;
  tooLarge: () => AppError;
  noFile: () => AppError;
}

/**
 * The bytes of the one `file` field of a multipart form, held in memory, refused past `maxBytes`
 * as they arrive (a body without Content-Length too), and given up when the client sends nothing
 * for `idleMs`. Shared by the inventory import and the class schedules' file upload.
 */
export function receiveSingleFile(
  req: Request,
  options: SingleFileUpload,
): Promise<{ bytes: Buffer; fileName: string | null }> {
  const { maxBytes, idleMs, timers, work, invalid, tooLarge, noFile } = options;
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: req.headers,
      limits: { files: 1, fileSize: maxBytes, fields: 10, fieldSize: 1024, parts: 20 },
    });
  } catch {
    return drain(req, idleMs).then(() => Promise.reject(noFile()));
  }
  return new Promise<{ bytes: Buffer; fileName: string | null }>((resolve, reject) => {
    let file: Promise<Buffer> | null = null;
    let fileName: string | null = null;
    // A client that stops sending must not hold the one upload this gateway reads at a time.
    const idle = timers.start(idleMs, () => {
      req.unpipe(parser);
      req.res?.setHeader('Connection', 'close');
      reject(
        new AppError(
          ErrorCode.UPLOAD_TIMEOUT,
          `Nothing of the file arrived for ${idleMs / 1000} s, so ${work} stopped. Try again.`,
        ),
      );
    });
    req.on('data', () => idle.refresh());
    const settle =
      <T>(done: (value: T) => void) =>
      (value: T) => {
        idle.clear();
        done(value);
      };
    resolve = settle(resolve);
    reject = settle(reject);
    req.once('close', () => {
      if (!req.readableEnded) reject(invalid('The upload was cut off before the file ended.'));
    });
    const fail = (error: AppError) => {
      req.unpipe(parser);
      void drain(req, idleMs).then(() => reject(error));
    };
    parser.on('file', (name, stream, info) => {
      if (name !== 'file' || file) {
        stream.resume();
        return;
      }
      // For the audit log: the name as the browser sent it, within the column's length.
      fileName = info.filename ? info.filename.slice(0, 255) : null;
      file = new Promise((done, failed) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('limit', () => failed(tooLarge()));
        stream.on('error', () => failed(invalid('The upload was cut off before the file ended.')));
        stream.on('end', () => done(Buffer.concat(chunks)));
      });
      file.catch((error: AppError) => fail(error));
    });
    parser.on('error', () => fail(invalid('The multipart form is malformed.')));
    parser.on('close', () => {
      if (!file) reject(noFile());
      else
        file.then(
          (bytes) => resolve({ bytes, fileName }),
          () => undefined,
        );
    });
    req.pipe(parser);
  });
}

/**
 * One upload read at a time (each is held in memory), its declared size checked before a byte is
 * read: another upload meanwhile is answered 429, a declared size past the limit 413, and the
 * request is drained first so that its client reads the answer.
 */
export class OneFileAtATime {
  private busy = false;

  constructor(private readonly options: SingleFileUpload & { busyMessage: string }) {}

  async receive<T>(
    req: Request,
    handle: (file: { bytes: Buffer; fileName: string | null }) => Promise<T>,
  ): Promise<T> {
    const { maxBytes, idleMs, tooLarge, busyMessage } = this.options;
    if (Number(req.headers['content-length']) > maxBytes + ENVELOPE_BYTES) {
      await drain(req, idleMs);
      throw tooLarge();
    }
    if (this.busy) {
      await drain(req, idleMs);
      throw new AppError(ErrorCode.TOO_MANY_UPLOADS, busyMessage);
    }
    this.busy = true;
    try {
      return await handle(await receiveSingleFile(req, this.options));
    } finally {
      this.busy = false;
    }
  }
}
