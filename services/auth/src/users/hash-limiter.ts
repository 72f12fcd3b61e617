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
  refuse: () => void;
  timer: NodeJS.Timeout;
  priority: boolean;
}

const busy = () => new AppError(ErrorCode.PASSWORD_CHECKS_BUSY, authMessages.passwordChecksBusy);

/**
 * Bounds the argon2 work of one process. argon2 runs on libuv's thread pool: without a bound, a
 * burst of sign-ins queues there unseen until every caller's deadline has passed (504 for all).
 * Refusing what would wait too long keeps the answers quick for those admitted. A task with
 * priority (the sign-in of a browser that signed in before) waits ahead of the others and, when
 * the queue is full, takes the place of the last of them: a flood of strangers' sign-ins, from
 * however many addresses, does not turn away people who have signed in before.
 */
export class HashLimiter {
  private running = 0;
  private readonly waiting: Waiter[] = [];

  constructor(private readonly limits: HashLimits) {}

  async run<T>(task: () => Promise<T>, priority = false): Promise<T> {
    await this.slot(priority);
    try {
      return await task();
    } finally {
      this.release();
    }
  }

  private slot(priority: boolean): Promise<void> {
    if (this.running < this.limits.concurrency) {
      this.running++;
      return Promise.resolve();
    }
    if (this.waiting.length >= this.limits.queueLength) {
      const displaced = priority ? this.waiting.findLast((w) => !w.priority) : undefined;
      if (!displaced) return Promise.reject(busy());
      this.leave(displaced);
      displaced.refuse();
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        start: () => {
          clearTimeout(waiter.timer);
          resolve();
        },
        refuse: () => {
          clearTimeout(waiter.timer);
          reject(busy());
        },
        timer: setTimeout(() => {
          this.leave(waiter);
          reject(busy());
        }, this.limits.maxWaitMs),
        priority,
      };
      const behind = priority ? this.waiting.findIndex((w) => !w.priority) : -1;
      this.waiting.splice(behind === -1 ? this.waiting.length : behind, 0, waiter);
    });
  }

  private leave(waiter: Waiter): void {
    this.waiting.splice(this.waiting.indexOf(waiter), 1);
  }

  private release(): void {
    // The slot passes straight to the next waiter, so that `running` never dips below what runs.
    const next = this.waiting.shift();
    if (next) next.start();
    else this.running--;
  }
}
