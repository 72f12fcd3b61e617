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
 * Counts the uploads in progress in this process, in all, per user and per upload link: each
 * streamed upload holds a part buffer of 5 MB until it ends, so the count bounds the memory
 * uploads take (UPLOAD_MAX_CONCURRENT × 5 MB), and one user cannot take every slot. Uploads
 * forwarded to the store (StoreProxy) hold no buffer but a connection to the store each: they
 * count for the user who asked for their link, and one link carries one upload at a time, so
 * that nobody else's requests can use up a user's slots.
 */
@Injectable()
export class UploadSlots {
  private total = 0;
  private readonly perUser = new Map<string, number>();
  private readonly links = new Set<string>();

  constructor(@Inject(CONFIG) private readonly config: Config) {}

  /** Uploads holding a slot now. */
  get inProgress(): number {
    return this.total;
  }

  /**
   * Takes a slot for `user` (and for the upload `link`, when it comes through one), or refuses;
   * the answer gives the slot back, once however often it is called.
   */
  take(user: string, link?: string): () => void {
    const held = this.perUser.get(user) ?? 0;
    if (link !== undefined && this.links.has(link)) {
      throw new TooManyUploads(
        'This upload link is already sending a file. Wait for that upload to finish, or start a new one.',
      );
    }
    if (held >= this.config.UPLOAD_MAX_CONCURRENT_PER_USER) {
      const n = this.config.UPLOAD_MAX_CONCURRENT_PER_USER;
      throw new TooManyUploads(
        `You already have ${n} upload${n === 1 ? '' : 's'} in progress. Wait for one to finish, then try again.`,
      );
    }
    if (this.total >= this.config.UPLOAD_MAX_CONCURRENT) {
      throw new TooManyUploads('The server is busy with other uploads. Try again in a few seconds.');
    }
    this.total++;
    this.perUser.set(user, held + 1);
    if (link !== undefined) this.links.add(link);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.total--;
      if (link !== undefined) this.links.delete(link);
      const left = (this.perUser.get(user) ?? 1) - 1;
      if (left > 0) this.perUser.set(user, left);
      else this.perUser.delete(user);
    };
  }
}
