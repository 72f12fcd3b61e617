import { ErrorCode, IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_WINDOW_HOURS } from '@cm/contracts';
import { AppError } from '@cm/platform';
import { Injectable, Logger } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { type IdempotencyClaim, IdempotencyKeyRepository } from './idempotency-key.repository';

const WINDOW_MS = IDEMPOTENCY_WINDOW_HOURS * 3_600_000;
// Longer than any create can take (the NATS request timeout and the picture checks are seconds):
// a key still unanswered after this was held by a gateway that stopped, and is taken over.
const ABANDONED_AFTER_MS = 2 * 60_000;
// A duplicate sent while the first still runs waits for its answer, up to this long.
const WAIT_FOR_FIRST_MS = 20_000;
const POLL_MS = 100;
const SWEEP_EVERY_MS = 3_600_000;

/** What a create answered: the stored result of an earlier request, or this one's own. */
export interface IdempotentResult<T> {
  body: T;
  replayed: boolean;
}

/**
 * Runs a create at most once per (user, route, key): the first request runs it and stores its
 * answer; one with the same key and body answers that; one with another body is refused. A
 * failed create stores nothing, so that its retry tries again.
 */
@Injectable()
export class IdempotencyService {
  private readonly logger = new Logger(IdempotencyService.name);
  private lastSweep = 0;

  constructor(private readonly keys: IdempotencyKeyRepository) {}

  async run<T>(claim: IdempotencyClaim, create: () => Promise<T>): Promise<IdempotentResult<T>> {
    const waitUntil = Date.now() + WAIT_FOR_FIRST_MS;
    for (;;) {
      if (await this.claim(claim)) return { body: await this.runClaimed(claim, create), replayed: false };
      const earlier = await this.keys.find(claim);
      // Gone between the two statements (the first failed, or it expired): try to take it again.
      if (!earlier) continue;
      if (earlier.fingerprint !== claim.fingerprint)
        throw new AppError(
          ErrorCode.IDEMPOTENCY_KEY_REUSED,
          `This ${IDEMPOTENCY_KEY_HEADER} was already used for a different request. Send a new key for new data.`,
        );
      if (earlier.response) return { body: earlier.response.body as T, replayed: true };
      if (Date.now() >= waitUntil)
        throw new AppError(
          ErrorCode.IDEMPOTENCY_KEY_IN_USE,
          `A request with this ${IDEMPOTENCY_KEY_HEADER} is still being processed. Try again in a moment.`,
        );
      await sleep(POLL_MS);
    }
  }

  private async runClaimed<T>(claim: IdempotencyClaim, create: () => Promise<T>): Promise<T> {
    let body: T;
    try {
      body = await create();
    } catch (error) {
      await this.keys.release(claim).catch((e: unknown) => this.logger.warn(`Could not release a key: ${e}`));
      throw error;
    }
    await this.keys.answer(claim, body);
    return body;
  }

  private claim(claim: IdempotencyClaim): Promise<boolean> {
    const now = Date.now();
    // Creates are rare enough for the forgotten keys to be swept here, once an hour per replica.
    if (now - this.lastSweep > SWEEP_EVERY_MS) {
      this.lastSweep = now;
      this.keys
        .sweep(new Date(now - WINDOW_MS))
        .catch((e: unknown) => this.logger.warn(`Could not sweep idempotency keys: ${e}`));
    }
    return this.keys.claim(
      claim,
      new Date(now),
      new Date(now - WINDOW_MS),
      new Date(now - ABANDONED_AFTER_MS),
    );
  }
}
