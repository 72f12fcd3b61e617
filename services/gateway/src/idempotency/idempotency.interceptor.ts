import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAY_HEADER, idempotencyKeySchema } from '@cm/contracts';
import { ZodPipe } from '@cm/platform';
import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import { createHash } from 'node:crypto';
import type { Response } from 'express';
import { from, lastValueFrom, type Observable } from 'rxjs';
import { type SignedInRequest } from '../identity/current-user';
import { IdempotencyService } from './idempotency.service';

/**
 * The creates of the contract marked `idempotent` (ApiRoute adds it to them only): with an
 * Idempotency-Key header, the request goes through IdempotencyService; without one, as before.
 * It runs after the access guard, so the user is known and the body is parsed.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  private readonly keyPipe = new ZodPipe(idempotencyKeySchema);

  constructor(private readonly idempotency: IdempotencyService) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<SignedInRequest>();
    const header = req.get(IDEMPOTENCY_KEY_HEADER);
    const userId = req.user?.id;
    if (header === undefined || !userId) return next.handle();
    const key = this.keyPipe.transform(header);
    const claim = {
      userId,
      route: `${req.method} ${req.originalUrl.split('?')[0]}`,
      key,
      fingerprint: createHash('sha256').update(requestShape(req)).digest('hex'),
    };
    const res = context.switchToHttp().getResponse<Response>();
    return from(
      this.idempotency
        .run(claim, () => lastValueFrom(next.handle()))
        .then(({ body, replayed }) => {
          if (replayed) res.setHeader(IDEMPOTENT_REPLAY_HEADER, 'true');
          // A replayed upload's file is not read by its handler: read past, so the answer gets out.
          if (replayed && !req.readableEnded) req.resume();
          return body;
        }),
    );
  }
}

/**
 * What tells two requests under one key apart: the JSON body; for an upload (multipart, streamed
 * by its handler, so not read yet) its length, which is the file's plus an envelope of the same
 * size from the same browser.
 */
function requestShape(req: SignedInRequest): string {
  if (req.is('multipart/form-data')) return `multipart ${req.get('content-length') ?? 'chunked'}`;
  return JSON.stringify(req.body ?? null);
}
