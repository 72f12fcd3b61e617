/**
 * A job a replica runs on an interval: never two rounds at once (a tick while one runs joins it),
 * a failed round handed to `failed` and left for the next tick, and the round under way waited
 * for at shutdown. RelayLoop differs in one way: a kick there asks for one more round after the
 * one under way, since what it relays may have committed after that round read it.
 */
export class PeriodicTask<T = unknown> {
  private timer?: NodeJS.Timeout;
  private running?: Promise<T | undefined>;

  constructor(
    private readonly round: () => Promise<T>,
    private readonly failed: (error: unknown) => void,
  ) {}

  /** Ticks every `everyMs`; the timer keeps no process alive. */
  start(everyMs: number): void {
    this.timer = setInterval(() => void this.run(), everyMs);
    this.timer.unref();
  }

  /** A round now, or the one under way; undefined when it failed. */
  run(): Promise<T | undefined> {
    this.running ??= this.round()
      .catch((error: unknown) => {
        this.failed(error);
        return undefined;
      })
      .finally(() => (this.running = undefined));
    return this.running;
  }

  /** Stops the ticks and waits for the round under way. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
