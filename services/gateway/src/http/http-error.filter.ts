import { ErrorCode, type ErrorBody } from '@cm/contracts';
import { AppError, httpStatusFor, retryAfterSecondsByCode, toErrorBody, isUnreachable } from '@cm/platform';
import {
  type ArgumentsHost,
  Catch,
  type ExceptionFilter,
  HttpException,
  Logger,
  NotFoundException,
} from '@nestjs/common';
import type { Request, Response } from 'express';

const codeByStatus: Record<number, ErrorCode> = {
  400: ErrorCode.VALIDATION_FAILED,
  401: ErrorCode.UNAUTHENTICATED,
  403: ErrorCode.FORBIDDEN,
  404: ErrorCode.NOT_FOUND,
  409: ErrorCode.CONFLICT,
  413: ErrorCode.PAYLOAD_TOO_LARGE,
  415: ErrorCode.UNSUPPORTED_MEDIA_TYPE,
  429: ErrorCode.TOO_MANY_ATTEMPTS,
  503: ErrorCode.SERVICE_UNAVAILABLE,
};

/**
 * Every failure leaves the gateway as `{ code, message }` with the status from the one
 * code → status table. A GET for an unknown page (not /api) is a deep link into the web
 * app: it gets index.html.
 */
@Catch()
export class HttpErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger(HttpErrorFilter.name);

  constructor(private readonly webIndex: string | null) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    if (res.headersSent) return;

    const isApi = req.path === '/api' || req.path.startsWith('/api/');
    if (exception instanceof NotFoundException && !isApi && req.method === 'GET' && this.webIndex) {
      res.setHeader('Cache-Control', 'no-cache');
      res.sendFile(this.webIndex);
      return;
    }
    const [status, body] = this.describe(exception, req);
    if (status >= 500 && body.code === ErrorCode.INTERNAL) this.logger.error(exception);
    const retryAfter = retryAfterSecondsByCode[body.code as ErrorCode];
    if (retryAfter && !res.hasHeader('Retry-After')) res.setHeader('Retry-After', String(retryAfter));
    res.status(status).json(body);
  }

  private describe(exception: unknown, req: Request): [number, ErrorBody] {
    if (exception instanceof AppError) return [httpStatusFor(exception.code), exception.toBody()];
    if (exception instanceof NotFoundException && !(exception.getResponse() as { code?: string }).code) {
      return [404, { code: ErrorCode.ROUTE_NOT_FOUND, message: `No route ${req.method} ${req.path}` }];
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const response = exception.getResponse();
      const message =
        typeof response === 'string'
          ? response
          : ((response as { message?: string }).message ?? exception.message);
      return [status, { code: codeByStatus[status] ?? ErrorCode.INTERNAL, message: String(message) }];
    }
    // The gateway's own database (sessions, sign-in limits, audit) out of reach, or its pool
    // exhausted under load: worth trying again shortly (503), not a fault of ours (500).
    if (isUnreachable(exception)) {
      this.logger.warn(`Answered 503: ${String((exception as Error).message ?? exception)}`);
      return [503, toErrorBody(exception)];
    }
    return [500, { code: ErrorCode.INTERNAL, message: 'Something went wrong on the server. Try again.' }];
  }
}
