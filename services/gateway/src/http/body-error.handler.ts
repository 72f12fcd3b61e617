import { ErrorCode } from '@cm/contracts';
import type { NextFunction, Request, Response } from 'express';

/** Turns body-parser failures (bad JSON, too large) into our error body instead of an HTML page. */
export function bodyErrorHandler(error: unknown, _req: Request, res: Response, next: NextFunction): void {
  const type = (error as { type?: string }).type;
  if (type === 'entity.parse.failed') {
    res
      .status(400)
      .json({ code: ErrorCode.VALIDATION_FAILED, message: 'The request body is not valid JSON' });
  } else if (type === 'entity.too.large') {
    res
      .status(413)
      .json({ code: ErrorCode.PAYLOAD_TOO_LARGE, message: 'The request body is larger than 1 MB' });
  } else if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
    res.status(415).json({ code: ErrorCode.UNSUPPORTED_MEDIA_TYPE, message: 'Send the body as UTF-8 JSON' });
  } else {
    next(error);
  }
}
