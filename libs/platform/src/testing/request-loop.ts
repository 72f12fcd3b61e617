/** One request of a RequestLoop; times in epoch milliseconds (fractional). */
export interface LoopAnswer {
  startedAt: number;
  endedAt: number;
  /** The HTTP status, 0 when none came (the connection failed, or the loop's deadline passed). */
  status: number;
  error?: string;
}

export interface RequestLoopOptions {
  headers?: Record<string, string>;
  /** Clients asking at the same time, each one request after another. */
  clients?: number;
  /** Each client's pause between an answer and its next request. */
  pauseMs?: number;
  /** Longest wait for one answer before it counts as none. */
  timeoutMs?: number;
}

const now = () => performance.timeOrigin + performance.now();

/**
 * A few clients calling one URL over and over until stopped, each answer recorded: what a user of
 * the API saw while something underneath was taken away.
 */
export class RequestLoop {
  readonly answers: LoopAnswer[] = [];
  private running = true;
  private readonly clients: Promise<void>[];

  private constructor(
    private readonly url: string,
    private readonly options: Required<RequestLoopOptions>,
  ) {
    this.clients = Array.from({ length: options.clients }, () => this.client());
  }

  static start(url: string, options: RequestLoopOptions = {}): RequestLoop {
    return new RequestLoop(url, { headers: {}, clients: 4, pauseMs: 50, timeoutMs: 30_000, ...options });
  }

  /** Lets the requests in flight finish, and answers every one made. */
  async stop(): Promise<LoopAnswer[]> {
    this.running = false;
    await Promise.all(this.clients);
    return [...this.answers].sort((a, b) => a.startedAt - b.startedAt);
  }

  private async client(): Promise<void> {
    while (this.running) {
      const startedAt = now();
      let status = 0;
      let error: string | undefined;
      try {
        const res = await fetch(this.url, {
          headers: this.options.headers,
          signal: AbortSignal.timeout(this.options.timeoutMs),
        });
        status = res.status;
        const body = await res.text();
        if (!res.ok) error = body.slice(0, 300);
      } catch (failure) {
        error = String(failure);
      }
      this.answers.push({ startedAt, endedAt: now(), status, error });
      await new Promise((resolve) => setTimeout(resolve, this.options.pauseMs));
    }
  }
}

/** What a RequestLoop's answers say of an outage. */
export interface OutageSummary {
  requests: number;
  /** Requests answered with anything but 2xx, or not at all. */
  failed: LoopAnswer[];
  /** Requests answered (successfully or not) only after `stallMs`. */
  stalled: LoopAnswer[];
  /**
   * The longest time during which no request was answered successfully (the loop's start and end
   * count as answers): what "the API answered nothing for so long" means.
   */
  longestSilenceMs: number;
  /** When that silence began (epoch ms). */
  silenceFrom: number;
  /**
   * From the start of the first request that failed or stalled to the end of the last one (0 when
   * none did): how long requests went wrong, however many clients asked meanwhile.
   */
  troubleMs: number;
  slowestMs: number;
}

export function outageOf(answers: LoopAnswer[], stallMs: number): OutageSummary {
  const ok = (a: LoopAnswer) => a.status >= 200 && a.status < 300;
  const ends = [
    Math.min(...answers.map((a) => a.startedAt)),
    ...answers.filter(ok).map((a) => a.endedAt),
    Math.max(...answers.map((a) => a.endedAt)),
  ].sort((a, b) => a - b);
  let longestSilenceMs = 0;
  let silenceFrom = ends[0];
  for (let i = 1; i < ends.length; i++) {
    if (ends[i] - ends[i - 1] > longestSilenceMs) {
      longestSilenceMs = ends[i] - ends[i - 1];
      silenceFrom = ends[i - 1];
    }
  }
  const duration = (a: LoopAnswer) => a.endedAt - a.startedAt;
  const troubled = answers.filter((a) => !ok(a) || duration(a) > stallMs);
  return {
    requests: answers.length,
    failed: answers.filter((a) => !ok(a)),
    stalled: answers.filter((a) => duration(a) > stallMs),
    longestSilenceMs,
    silenceFrom,
    troubleMs: troubled.length
      ? Math.max(...troubled.map((a) => a.endedAt)) - Math.min(...troubled.map((a) => a.startedAt))
      : 0,
    slowestMs: Math.max(0, ...answers.map(duration)),
  };
}
