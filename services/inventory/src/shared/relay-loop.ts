/**
 * What both outbox relays do alike: run a round at once when kicked and on an interval for what
 * is left. A kick while a round runs asks for one more after it, since a row that committed after
 * the round read the table is not in it. A failed round is handed to `failed` and left for the next.
 */
export class RelayLoop {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;

  constructor(
    private readonly round: () => Promise<void>,
    private readonly failed: (error: unknown) => void,
  ) {}

  start(intervalMs: number): void {
    this.timer = setInterval(() => this.kick(), intervalMs);
    this.kick();
  }

  /** Stops the interval and waits for the round under way. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  kick(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.round()
      .catch(this.failed)
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }
}
