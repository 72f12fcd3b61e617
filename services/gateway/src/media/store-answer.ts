import type { IncomingMessage } from 'node:http';
import { ErrorCode, mediaMessages } from '@cm/contracts';
import { AppError, httpStatusFor } from '@cm/platform';
import type { Logger } from '@nestjs/common';
import type { Response } from 'express';

/** The store's error document is short; only its start is read. */
const ERROR_DOCUMENT_BYTES = 16 * 1024;

export const storeFailed = () =>
  new AppError(ErrorCode.SERVICE_UNAVAILABLE, 'The file could not be stored just now. Try again.');

/** Answers with the error, unless an answer has started already. */
export function respond(res: Response, error: AppError): void {
  if (res.headersSent) return;
  res.status(httpStatusFor(error.code)).json(error.toBody());
}

/** The code and message of the store's S3 error document, as far as it says them. */
export async function readStoreError(answer: IncomingMessage): Promise<{ code?: string; message: string }> {
  const document = await readStart(answer, ERROR_DOCUMENT_BYTES).catch(() => '');
  const code = /<Code>([^<]*)<\/Code>/.exec(document)?.[1];
  const message = /<Message>([^<]*)<\/Message>/.exec(document)?.[1] ?? '';
  return { code, message };
}

/** What the store's refusal means to the person uploading. */
export function storeRefusal(
  status: number,
  code: string | undefined,
  message: string,
  logger: Logger,
): AppError {
  const named = code ? ` (${code})` : '';
  if (status === 403 && /expired/i.test(message)) {
    return new AppError(
      ErrorCode.UPLOAD_LINK_REFUSED,
      'The upload link has expired (Request has expired). Start the upload again.',
    );
  }
  if (status === 403) {
    return new AppError(
      ErrorCode.UPLOAD_LINK_REFUSED,
      `The file store refused the upload link${named}: it does not match this file or was altered. Start the upload again.`,
    );
  }
  if (code === 'EntityTooLarge') return new AppError(ErrorCode.FILE_TOO_LARGE, mediaMessages.tooLarge);
  if (status >= 400 && status < 500 && status !== 404) {
    return new AppError(
      ErrorCode.VALIDATION_FAILED,
      `The file store refused the upload${named}. Start the upload again.`,
    );
  }
  // The bucket missing or the store failing is ours to fix, not the person's.
  logger.warn(`Object store answered ${status}${named} to a forwarded upload: ${message}`);
  return storeFailed();
}

/** Up to `limit` bytes of a response, as text; the rest is dropped. */
function readStart(stream: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on('data', (chunk: Buffer) => {
      if (size < limit) chunks.push(chunk);
      size += chunk.length;
    });
    stream.once('end', () => resolve(Buffer.concat(chunks).toString('utf8').slice(0, limit)));
    stream.once('error', reject);
  });
}
