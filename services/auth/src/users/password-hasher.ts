import { randomBytes } from 'node:crypto';
import { CONFIG } from '@cm/platform';
import { Inject, Injectable } from '@nestjs/common';
import * as argon2 from 'argon2';
import { type Config } from '../config';
import { HashLimiter } from './hash-limiter';

/**
 * argon2id at the cost the configuration sets (by default the library's: 64 MiB, 3 passes, 4 lanes),
 * no more than AUTH_MAX_CONCURRENT_HASHES at once (see HashLimiter).
 */
@Injectable()
export class PasswordHasher {
  private dummy: Promise<string> | undefined;
  private readonly options: argon2.Options;
  private readonly limiter: HashLimiter;

  constructor(@Inject(CONFIG) config: Config) {
    this.options = {
      type: argon2.argon2id,
      memoryCost: config.PASSWORD_HASH_MEMORY_KIB,
      timeCost: config.PASSWORD_HASH_PASSES,
      parallelism: config.PASSWORD_HASH_PARALLELISM,
    };
    this.limiter = new HashLimiter({
      concurrency: config.AUTH_MAX_CONCURRENT_HASHES,
      queueLength: config.AUTH_HASH_QUEUE_LENGTH,
      // A check still queued when the caller has given up would only spend a core for nobody.
      maxWaitMs: config.NATS_REQUEST_TIMEOUT_MS / 2,
    });
  }

  hash(password: string): Promise<string> {
    return this.limiter.run(() => argon2.hash(password, this.options));
  }

  /** `priority`: ahead of the others when checks have to wait (see HashLimiter). */
  verify(hash: string, password: string, priority = false): Promise<boolean> {
    return this.limiter.run(() => argon2.verify(hash, password).catch(() => false), priority);
  }

  /**
   * Spends the time of a real verification for a username that does not exist, so that the
   * answer's timing does not tell which usernames do.
   */
  async verifyNobody(password: string): Promise<false> {
    // Made once, outside the limit: a refusal must not be remembered as the dummy.
    this.dummy ??= argon2.hash(randomBytes(16).toString('base64url'), this.options);
    await this.verify(await this.dummy, password);
    return false;
  }
}
