import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import * as argon2 from 'argon2';

/** argon2id with the library's defaults (19 MiB, 2 passes), the OWASP baseline. */
@Injectable()
export class PasswordHasher {
  private dummy: Promise<string> | undefined;

  hash(password: string): Promise<string> {
    return argon2.hash(password, { type: argon2.argon2id });
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
