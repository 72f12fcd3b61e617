import {
  ErrorCode,
  type ErrorBody,
  ETAG_HEADER,
  etagOf,
  IF_MATCH_HEADER,
  type StaleWriteBody,
  versionOfIfMatch,
} from '@cm/contracts';
import { AppError } from '@cm/platform';
import {
  type CallHandler,
  createParamDecorator,
  type ExecutionContext,
  Injectable,
  type NestInterceptor,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import { map, type Observable } from 'rxjs';

/** Sets the record's version as the answer's ETag, and gives the record back. */
export function withVersionTag<T>(res: Response, body: T): T {
  const version = (body as { version?: unknown } | null)?.version;
  if (typeof version === 'number' && !res.headersSent) res.setHeader(ETAG_HEADER, etagOf(version));
  return body;
}

/**
 * The answer of a versioned edit carries the record's version as its ETag. Reads of a versioned
 * record call withVersionTag themselves: an interceptor costs each request it is on an
 * observable chain and an async resource, a measurable share of a read's CPU.
 */
@Injectable()
export class VersionInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const res = context.switchToHttp().getResponse<Response>();
    return next.handle().pipe(map((body: unknown) => withVersionTag(res, body)));
  }
}

/** The version an edit's `If-Match` names; undefined without one (or `*`); a 400 for anything else. */
export const IfMatchVersion = createParamDecorator((_: unknown, context: ExecutionContext) => {
  const header = context.switchToHttp().getRequest<Request>().get(IF_MATCH_HEADER);
  const version = versionOfIfMatch(header);
  if (version === null)
    throw new AppError(
      ErrorCode.VALIDATION_FAILED,
      `${IF_MATCH_HEADER} must be the ${ETAG_HEADER} a read of this record answered, for example "3"`,
    );
  return version;
});

/** A 412: the error, with the record as it is now, so that the client can show both versions. */
export class StaleWriteError extends AppError {
  constructor(
    message: string,
    readonly current: Record<string, unknown>,
  ) {
    super(ErrorCode.STALE_VERSION, message);
  }

  override toBody(): ErrorBody {
    const body: StaleWriteBody = { code: this.code, message: this.message, current: this.current };
    return body;
  }
}

/**
 * Runs an edit; when the inventory refuses it as stale, answers the refusal with the record as it
 * is now (read after the refusal, so it is the version that won).
 */
export async function versionedWrite<T>(
  write: () => Promise<T>,
  current: () => Promise<Record<string, unknown>>,
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== ErrorCode.STALE_VERSION) throw error;
    throw new StaleWriteError(error.message, await current());
  }
}
