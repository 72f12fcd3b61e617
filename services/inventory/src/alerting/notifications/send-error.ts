/** A send that failed, with a sentence for the delivery log, and the wait the receiver asked for. */
export class SendError extends Error {
  constructor(
    message: string,
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
  }
}
