import { authMessages, ErrorCode } from '@cm/contracts';
import { AppError } from '@cm/platform';

export interface HashLimits {
  /** Tasks running at once. */
  concurrency: number;
  /** Tasks waiting for a slot; one more is refused at once. */
  queueLength: number;
  /** Longest a task waits for a slot before it is refused. */
  maxWaitMs: number;
}

interface Waiter {
  start: () => void;
  timer: NodeJS.Timeout;
}

const busy = () => new AppError(ErrorCode.PASSWORD_CHECKS_BUSY, authMessages.passwordChecksBusy);

/**
 * Bounds the argon2 work of one process. argon2 runs on libuv's thread pool: without a bound, a
 * burst of sign-ins queues there unseen until every caller's deadline has passed (504 for all).
 * Refusing what would wait too long keeps the answers quick for those admitted.
 */
export class HashLimiter {
  private running = 0;
  private readonly waiting: Waiter[] = [];

  constructor(private readonly limits: HashLimits) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    await this.slot();
    try {
      return await task();
    } finally {
      this.release();
    }
  }

  private slot(): Promise<void> {
    if (this.running < this.limits.concurrency) {
      this.running++;
      return Promise.resolve();
    }
    if (this.waiting.length >= this.limits.queueLength) return Promise.reject(busy());
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        start: () => {
          clearTimeout(waiter.timer);
          resolve();
        },
        timer: setTimeout(() => {
          this.waiting.splice(this.waiting.indexOf(waiter), 1);
          reject(busy());
        }, this.limits.maxWaitMs),
      };
      this.waiting.push(waiter);
    });
  }

  private release(): void {
    // The slot passes straight to the next waiter, so that `running` never dips below what runs.
    const next = this.waiting.shift();
    if (next) next.start();
    else this.running--;
  }
}
