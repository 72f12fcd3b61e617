import { envInt } from '@cm/platform';

/** The readiness check's settings, validated at start-up with the rest of inventory's (docs/operations.md). */
export const readinessEnv = {
  /** How many minutes before each class its room is checked. */
  READINESS_LEAD_MINUTES: envInt(1, 240, 20),
  /** How often each replica looks for classes due for their check and whether the morning summary is due (one replica does each). */
  READINESS_TICK_MS: envInt(1000, 3_600_000, 30_000),
};

/** Where readiness reads the time; a test moves it instead of waiting for a class. */
export interface ReadinessClock {
  now(): Date;
}
export const READINESS_CLOCK = Symbol('READINESS_CLOCK');
export const readinessClockProvider = {
  provide: READINESS_CLOCK,
  useFactory: (): ReadinessClock => ({ now: () => new Date() }),
};
