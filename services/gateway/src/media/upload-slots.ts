import { ErrorCode } from '@cm/contracts';
import { AppError, CONFIG } from '@cm/platform';
import { Inject, Injectable } from '@nestjs/common';
import { type Config } from '../config';

/**
 * A slot is usually free again within seconds (a 5 MB part to the store, or an idle sender's
 * timeout); asking sooner would mostly be refused again.
 */
export const UPLOAD_RETRY_AFTER_SECONDS = 10;

export class TooManyUploads extends AppError {
  readonly retryAfterSeconds = UPLOAD_RETRY_AFTER_SECONDS;

  constructor(message: string) {
    super(ErrorCode.TOO_MANY_UPLOADS, message);
  }
}

/**
 * Counts the streamed uploads in progress in this process, in all and per user: each holds a
 * part buffer of 5 MB until it ends, so the count bounds the memory uploads take
 * (UPLOAD_MAX_CONCURRENT × 5 MB), and one user cannot take every slot. Uploads forwarded to the
 * store (StoreProxy) hold no buffer but a connection to the store each, and count in the total.
 */
@Injectable()
export class UploadSlots {
  private total = 0;
  private readonly perUser = new Map<string, number>();

  constructor(@Inject(CONFIG) private readonly config: Config) {}

  /**
   * Takes a slot for `user`, or refuses; the answer gives the slot back, once however often it is
   * called. An upload of nobody we know (`null`: a PUT through /store, whose signed link is its
   * only credential) counts in the total alone.
   */
  take(user: string | null): () => void {
    const held = user === null ? 0 : (this.perUser.get(user) ?? 0);
    if (user !== null && held >= this.config.UPLOAD_MAX_CONCURRENT_PER_USER) {
      const n = this.config.UPLOAD_MAX_CONCURRENT_PER_USER;
      throw new TooManyUploads(
        `You already have ${n} upload${n === 1 ? '' : 's'} in progress. Wait for one to finish, then try again.`,
      );
    }
    if (this.total >= this.config.UPLOAD_MAX_CONCURRENT) {
      throw new TooManyUploads('The server is busy with other uploads. Try again in a few seconds.');
    }
    this.total++;
    if (user !== null) this.perUser.set(user, held + 1);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.total--;
      if (user === null) return;
      const left = (this.perUser.get(user) ?? 1) - 1;
      if (left > 0) this.perUser.set(user, left);
      else this.perUser.delete(user);
    };
  }
}
