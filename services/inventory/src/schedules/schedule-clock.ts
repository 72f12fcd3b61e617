/**
 * Where schedules read the time: when a feed is due, the window of classes kept, the lease of a
 * read. A test moves it to make a feed due instead of waiting for one.
 */
export interface ScheduleClock {
  now(): Date;
}
export const SCHEDULE_CLOCK = Symbol('SCHEDULE_CLOCK');
/** One per application, so that a test moving one replica's clock leaves another's alone. */
export const scheduleClockProvider = {
  provide: SCHEDULE_CLOCK,
  useFactory: (): ScheduleClock => ({ now: () => new Date() }),
};
