import { ErrorCode } from '@cm/contracts';
import { httpStatusFor } from '@cm/platform';
import type { NextFunction, Request, Response } from 'express';

interface BodyError {
  type?: string;
  status?: number;
  /** zlib's code (Z_DATA_ERROR, Z_BUF_ERROR) when a compressed body does not decompress. */
  code?: string;
}

/**
 * Turns body-parser failures (bad JSON, too large, an encoding it cannot decode) into our error
 * body instead of an HTML page or a 500.
 */
export function bodyErrorHandler(error: unknown, _req: Request, res: Response, next: NextFunction): void {
  const { type, status, code } = (error ?? {}) as BodyError;
  const refuse = (errorCode: ErrorCode, message: string) => {
    res.status(httpStatusFor(errorCode)).json({ code: errorCode, message });
  };
  if (type === 'entity.parse.failed') {
    refuse(ErrorCode.VALIDATION_FAILED, 'The request body is not valid JSON');
  } else if (type === 'entity.too.large') {
    refuse(ErrorCode.PAYLOAD_TOO_LARGE, 'The request body is larger than 1 MB');
  } else if (type === 'encoding.unsupported') {
    refuse(
      ErrorCode.UNSUPPORTED_MEDIA_TYPE,
      'This Content-Encoding is not supported: send the body uncompressed, or as gzip, deflate or br',
    );
  } else if (type === 'charset.unsupported') {
    refuse(ErrorCode.UNSUPPORTED_MEDIA_TYPE, 'Send the body as UTF-8 JSON');
  } else if (typeof code === 'string' && code.startsWith('Z_')) {
    refuse(
      ErrorCode.VALIDATION_FAILED,
      'The request body does not decompress as its Content-Encoding says (corrupt or cut short)',
    );
  } else if (typeof status === 'number' && status >= 400 && status < 500) {
    // The rest of body-parser's client errors: a body shorter or longer than its Content-Length,
    // a request aborted while it was read.
    refuse(ErrorCode.VALIDATION_FAILED, 'The request body could not be read as it was sent');
  } else {
    next(error);
  }
}
