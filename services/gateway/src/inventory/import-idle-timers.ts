/** An import's idle timer: restarted by each piece of the file, cleared once the file is read. */
export interface IdleTimer {
  refresh(): void;
  clear(): void;
}

/**
 * Where an import's idle timer comes from (a client that sends nothing for the idle time is
 * answered 408). A test runs it out by hand rather than racing a short one on a loaded machine.
 */
export interface IdleTimers {
  start(ms: number, onIdle: () => void): IdleTimer;
}
export const IMPORT_IDLE_TIMERS = Symbol('IMPORT_IDLE_TIMERS');
/** One per application, so that a test holding one gateway's timers leaves another's alone. */
export const importIdleTimersProvider = {
  provide: IMPORT_IDLE_TIMERS,
  useFactory: (): IdleTimers => ({
    start(ms, onIdle) {
      const timer = setTimeout(onIdle, ms);
      return { refresh: () => void timer.refresh(), clear: () => clearTimeout(timer) };
    },
  }),
};
