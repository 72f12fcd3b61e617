import { ErrorCode } from '@cm/contracts';
import { Catch, Logger, type RpcExceptionFilter } from '@nestjs/common';
import { type Observable, throwError } from 'rxjs';
import { toErrorBody } from './errors';

/** Sends every failure of a message handler back as an error body with a stable code. */
@Catch()
export class RpcErrorFilter implements RpcExceptionFilter<unknown> {
  private readonly logger = new Logger(RpcErrorFilter.name);

  catch(exception: unknown): Observable<never> {
    const body = toErrorBody(exception);
    if (body.code === ErrorCode.INTERNAL) this.logger.error(exception);
    return throwError(() => body);
  }
}
