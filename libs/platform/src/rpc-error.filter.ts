import { type ErrorBody, ErrorCode } from '@cm/contracts';
import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { type Observable, throwError } from 'rxjs';
import { httpStatusFor, toErrorBody } from './errors';

const logger = new Logger('RpcErrorFilter');

/** What a failed message handler answers: its error body; an unexpected failure is logged. */
export function messageErrorBody(exception: unknown): ErrorBody {
  const body = toErrorBody(exception);
  if (body.code === ErrorCode.INTERNAL) logger.error(exception);
  return body;
}

/**
 * Sends every failure of a message handler back as an error body with a stable code. A
 * service's own HTTP port (probes, metrics) gets the same body as JSON.
 */
@Catch()
export class RpcErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger(RpcErrorFilter.name);

  catch(exception: unknown, host: ArgumentsHost): Observable<never> | void {
    if (host.getType() === 'http') {
      const res = host.switchToHttp().getResponse<Response>();
      if (exception instanceof HttpException) {
        res.status(exception.getStatus()).json({ code: ErrorCode.NOT_FOUND, message: exception.message });
        return;
      }
      const body = toErrorBody(exception);
      if (body.code === ErrorCode.INTERNAL) this.logger.error(exception);
      res.status(httpStatusFor(body.code)).json(body);
      return;
    }
    const body = messageErrorBody(exception);
    return throwError(() => body);
  }
}
