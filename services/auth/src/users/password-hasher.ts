import { randomBytes } from 'node:crypto';
import { CONFIG } from '@cm/platform';
import { Inject, Injectable } from '@nestjs/common';
import * as argon2 from 'argon2';
import { type Config } from '../config';

/** argon2id at the cost the configuration sets (by default the library's: 64 MiB, 3 passes, 4 lanes). */
@Injectable()
export class PasswordHasher {
  private dummy: Promise<string> | undefined;
  private readonly options: argon2.Options;

  constructor(@Inject(CONFIG) config: Config) {
    this.options = {
      type: argon2.argon2id,
      memoryCost: config.PASSWORD_HASH_MEMORY_KIB,
      timeCost: config.PASSWORD_HASH_PASSES,
      parallelism: config.PASSWORD_HASH_PARALLELISM,
    };
  }

  hash(password: string): Promise<string> {
    return argon2.hash(password, this.options);
  }

  verify(hash: string, password: string): Promise<boolean> {
    return argon2.verify(hash, password).catch(() => false);
  }

  /**
   * Spends the time of a real verification for a username that does not exist, so that the
   * answer's timing does not tell which usernames do.
   */
  async verifyNobody(password: string): Promise<false> {
    this.dummy ??= this.hash(randomBytes(16).toString('base64url'));
    await this.verify(await this.dummy, password);
    return false;
  }
}
