import { ErrorCode } from '@cm/contracts';
import { AppError, CONFIG } from '@cm/platform';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { type Config } from '../config';
import { LoginAttemptRepository } from './login-attempt.repository';

export class TooManyAttempts extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
    super(
      ErrorCode.TOO_MANY_ATTEMPTS,
      `Too many failed sign-ins. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    );
  }
}

/** Where the throttle reads the time; a test moves it instead of waiting out a window. */
export interface Clock {
  now(): number;
}
export const LOGIN_CLOCK = Symbol('LOGIN_CLOCK');
/** One per application, so that moving one gateway's clock leaves another's alone. */
export const loginClockProvider = {
  provide: LOGIN_CLOCK,
  useFactory: (): Clock => ({ now: () => Date.now() }),
};

/**
 * Limits failed sign-ins per username (LOGIN_MAX_FAILURES) and per client address
 * (LOGIN_MAX_FAILURES_PER_IP) within LOGIN_THROTTLE_WINDOW_SECONDS. The counters live in
 * PostgreSQL, so every gateway replica enforces the same limit.
 */
@Injectable()
export class LoginThrottle {
  private readonly logger = new Logger(LoginThrottle.name);

  constructor(
    @Inject(CONFIG) private readonly config: Config,
    private readonly attempts: LoginAttemptRepository,
    @Inject(LOGIN_CLOCK) private readonly clock: Clock,
  ) {}

  /** Runs one sign-in attempt under the limits; refused at once when a limit is reached. */
  async attempt<T>(username: string, ip: string, signIn: () => Promise<T>): Promise<T> {
    const window = this.config.LOGIN_THROTTLE_WINDOW_SECONDS;
    const userKey = `user:${username.trim().toLowerCase()}`;
    const ipKey = `ip:${ip}`;
    const limits: Record<string, number> = {
      [userKey]: this.config.LOGIN_MAX_FAILURES,
      [ipKey]: this.config.LOGIN_MAX_FAILURES_PER_IP,
    };
    const counts = await this.attempts.count([ipKey, userKey], window, new Date(this.clock.now()));
    const over = counts.filter((c) => c.failures > limits[c.key]);
    if (over.length) {
      this.logger.warn({ msg: 'Sign-in refused: too many failures', keys: over.map((c) => c.key) });
      throw new TooManyAttempts(Math.max(1, ...over.map((c) => c.retryAfterSeconds)));
    }
    try {
      const result = await signIn();
      await this.attempts.reset(userKey);
      await this.attempts.refund([ipKey]);
      return result;
    } catch (error) {
      // Only a wrong pair is a failed guess; an outage of the auth service is not.
      if ((error as AppError).code !== ErrorCode.INVALID_CREDENTIALS)
        await this.attempts.refund([userKey, ipKey]);
      throw error;
    }
  }
}
