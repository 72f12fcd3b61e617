import { ErrorCode } from '@cm/contracts';
import { AppError, CONFIG } from '@cm/platform';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { type Config } from '../config';
import { LoginAttemptRepository, type ThrottleKey } from './login-attempt.repository';
import {
  atCapacity,
  type Counter,
  current,
  forgottenBefore,
  isLocked,
  type Policy,
  waitSeconds,
} from './throttle-policy';

const inWords = (seconds: number) => {
  const [n, unit] = seconds < 60 ? [seconds, 'second'] : [Math.ceil(seconds / 60), 'minute'];
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
};

export class TooManyAttempts extends AppError {
  constructor(
    readonly retryAfterSeconds: number,
    message = `Too many failed sign-ins. Try again in ${inWords(retryAfterSeconds)}.`,
  ) {
    super(ErrorCode.TOO_MANY_ATTEMPTS, message);
  }
}

/** One address has as many sign-ins in flight as it may: the next waits for one of them. */
const tooManyAtOnce = () =>
  new TooManyAttempts(1, 'Too many sign-ins at once from your network address. Try again in 1 second.');

/** Failures that are someone guessing: a wrong password, or a wrong two-factor code. */
const guesses = new Set<string>([ErrorCode.INVALID_CREDENTIALS, ErrorCode.TOTP_INVALID]);
/**
 * Auth had no room to check the password: it says nothing about the password, but a client that
 * floods sign-in meets it most, so it counts against the client's address (never a user's pair).
 */
const busy = ErrorCode.PASSWORD_CHECKS_BUSY;

/** Throttling compares usernames as sign-in matches them: regardless of case and outer spaces. */
export const throttleName = (username: string) => username.trim().toLowerCase();

/** Where the throttle reads the time; a test moves it instead of waiting out a delay. */
export interface Clock {
  now(): number;
}
export const LOGIN_CLOCK = Symbol('LOGIN_CLOCK');
/** One per application, so that moving one gateway's clock leaves another's alone. */
export const loginClockProvider = {
  provide: LOGIN_CLOCK,
  useFactory: (): Clock => ({ now: () => Date.now() }),
};

export interface SignInAttempt {
  username: string;
  /** The client's address (`req.ip`). */
  client: string;
  /** The device id of a valid device cookie naming this username, if the browser sent one. */
  device: string | null;
  /**
   * A two-factor code rather than a password. Only someone who knows the password gets to try
   * codes, so these are also counted per account, from any address: a guesser spread over many
   * cannot try more.
   */
  code?: boolean;
}

const clientPrefix = 'client:';
const isClientKey = (key: string) => key.startsWith(clientPrefix);

interface Keyed extends ThrottleKey {
  policy: Policy;
}

/**
 * Slows guessing without handing anyone a lock-out. A browser with a device cookie for the
 * username is counted by that device alone; any other attempt by its (username, client) pair
 * and by its client, and a two-factor code also by its account. Past a counter's limit each
 * further attempt waits 1, 2, 4 … seconds up to LOGIN_MAX_DELAY_SECONDS (429 with Retry-After
 * meanwhile), so guesses from elsewhere never hold back a client or browser that did not fail
 * itself (the account's codes excepted, which only someone with the password can try). A client
 * address may also have no more than LOGIN_MAX_CONCURRENT_PER_IP sign-ins in flight, so that one
 * address flooding sign-in cannot take every password check auth has room for; a device cookie's
 * sign-ins are not counted there, which puts browsers that signed in before ahead of the flood.
 * The counters live in PostgreSQL, so every gateway replica enforces the same ones.
 */
@Injectable()
export class LoginThrottle {
  private readonly logger = new Logger(LoginThrottle.name);
  private readonly perUser: Policy;
  private readonly perClient: Policy;

  constructor(
    @Inject(CONFIG) config: Config,
    private readonly counters: LoginAttemptRepository,
    @Inject(LOGIN_CLOCK) private readonly clock: Clock,
  ) {
    const common = {
      maxDelaySeconds: config.LOGIN_MAX_DELAY_SECONDS,
      windowSeconds: config.LOGIN_THROTTLE_WINDOW_SECONDS,
    };
    this.perUser = { ...common, limit: config.LOGIN_MAX_FAILURES };
    this.perClient = {
      ...common,
      limit: config.LOGIN_MAX_FAILURES_PER_IP,
      maxPending: config.LOGIN_MAX_CONCURRENT_PER_IP,
    };
  }

  /**
   * Runs one sign-in under the counters of its device, or of its pair and client; refused at once
   * when one must wait. A right password that still needs a code is not `finished`: it leaves the
   * user's failures standing, so that wrong codes count with wrong passwords.
   */
  async attempt<T>(
    attempt: SignInAttempt,
    signIn: () => Promise<T>,
    finished: (result: T) => boolean = () => true,
  ): Promise<T> {
    const keys = this.keysOf(attempt);
    const now = this.clock.now();
    await this.counters.sweep(new Date(forgottenBefore(this.perClient, now)));
    const refusal = await this.counters.change(keys, new Date(now), (counters) => {
      const waits = keys.map((k) => waitSeconds(counters.get(k.key)!, k.policy, now));
      if (Math.max(...waits) > 0) return { result: new TooManyAttempts(Math.max(...waits)) };
      if (keys.some((k) => atCapacity(counters.get(k.key)!, k.policy, now)))
        return { result: tooManyAtOnce() };
      const next = new Map<string, Counter>();
      for (const k of keys) {
        const counter = current(counters.get(k.key)!, k.policy, now);
        next.set(k.key, { ...counter, pending: counter.pending + 1, touchedAt: now });
      }
      return { result: null, next };
    });
    if (refusal) {
      this.logger.warn({ msg: `Sign-in refused: ${refusal.message}`, keys: keys.map((k) => k.key) });
      throw refusal;
    }

    const names = keys.map((k) => k.key);
    let result: T;
    try {
      result = await signIn();
    } catch (error) {
      // A wrong pair or code is a failed guess; an outage is nothing; a busy auth, the client's.
      const { code } = error as AppError;
      const counted = guesses.has(code) ? names : code === busy ? names.filter(isClientKey) : [];
      if (counted.length) await this.counters.failed(counted, new Date(this.clock.now()));
      const released = names.filter((name) => !counted.includes(name));
      if (released.length) await this.counters.release(released);
      throw error;
    }
    // The pair or device starts afresh; the client's keeps its failures (a success with one
    // account must not wipe out guesses at others), and so does the account's: a guesser's codes
    // are not forgiven because the user signed in meanwhile.
    const [own, ...shared] = keys;
    if (finished(result)) await this.counters.forget([own.key]);
    else shared.unshift(own);
    await this.counters.release(shared.map((k) => k.key));
    return result;
  }

  /** The usernames that failed sign-ins hold back just now, from some client or device. */
  async lockedUsernames(): Promise<Set<string>> {
    const now = this.clock.now();
    const counters = await this.counters.countersWithFailures();
    return new Set(counters.filter((c) => isLocked(c, this.perUser, now)).map((c) => c.username));
  }

  /** An administrator's pardon: every counter of the username, from every client and device. */
  async clear(username: string): Promise<void> {
    await this.counters.forgetUser(throttleName(username));
  }

  private keysOf({ username, client, device, code }: SignInAttempt): Keyed[] {
    const name = throttleName(username);
    if (device) return [{ key: `device:${device}`, username: name, policy: this.perUser }];
    return [
      { key: `pair:${client}:${name}`, username: name, policy: this.perUser },
      ...(code ? [{ key: `codes:${name}`, username: name, policy: this.perUser }] : []),
      { key: `${clientPrefix}${client}`, username: null, policy: this.perClient },
    ];
  }
}
