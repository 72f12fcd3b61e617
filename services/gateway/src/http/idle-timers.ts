/** A request's idle timer: restarted by each piece of the body, cleared once the body is read. */
export interface IdleTimer {
  refresh(): void;
  clear(): void;
}

/**
 * Where a request's idle timers come from (a client that sends nothing for the idle time is
 * answered 408). A test runs them out by hand rather than racing a short one on a loaded machine,
 * where even a client that sent everything may go unread for longer than the idle time.
 */
export interface IdleTimers {
  start(ms: number, onIdle: () => void): IdleTimer;
}

/** The CSV import's (inventory-import.service.ts) and the class schedules' file upload's. */
export const IMPORT_IDLE_TIMERS = Symbol('IMPORT_IDLE_TIMERS');
/** Uploads' through the gateway: POST /api/upload (upload-receiver.ts) and /store (store-proxy.ts). */
export const UPLOAD_IDLE_TIMERS = Symbol('UPLOAD_IDLE_TIMERS');

/**
 * Real timers under `token`, one source per application, so that a test holding one gateway's
 * timers leaves another's alone.
 */
export const idleTimersProvider = (token: symbol) => ({
  provide: token,
  useFactory: (): IdleTimers => ({
    start(ms, onIdle) {
      const timer = setTimeout(onIdle, ms);
      return { refresh: () => void timer.refresh(), clear: () => clearTimeout(timer) };
    },
  }),
});
