import { CONFIG } from '@cm/platform';
import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { type Config } from '../../config';
import { SCHEDULE_CLOCK, type ScheduleClock } from '../schedule-clock';
import { backoffMs, FILE_REFRESH_MS } from '../schedules-config';
import { OccurrenceRepository } from '../sources/occurrence.repository';
import {
  type ClaimedSource,
  type ReadOutcome,
  ScheduleSourceRepository,
  type StoredCalendar,
} from '../sources/schedule-source.repository';
import { FeedFetcher } from './feed-fetcher';
import { formatOf, problemsText, readSchedule } from './schedule-reader';

const BATCH = 10;

/**
 * Reads the schedules that are due: a feed fetched (If-None-Match its ETag), an uploaded file
 * expanded afresh so its classes stay 14 days ahead. Every replica looks every
 * SCHEDULE_POLL_TICK_MS; a source is claimed with a lease (SKIP LOCKED), so one replica reads it.
 * A feed that fails keeps its last good calendar (still expanded as the days pass) and records
 * since when it fails; it is tried again after a delay that doubles with each failure.
 */
@Injectable()
export class SchedulePoller implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(SchedulePoller.name);
  private timer?: NodeJS.Timeout;
  private rounds: Promise<void> = Promise.resolve();
  private queued = false;

  constructor(
    @Inject(CONFIG) private readonly config: Config,
    @Inject(SCHEDULE_CLOCK) private readonly clock: ScheduleClock,
    private readonly sources: ScheduleSourceRepository,
    private readonly occurrences: OccurrenceRepository,
    private readonly fetcher: FeedFetcher,
  ) {}

  /** A claim outlives the fetch (its timeout covers redirects and the body) unless the replica died. */
  get leaseMs(): number {
    return this.config.SCHEDULE_FETCH_TIMEOUT_MS * 2 + 10_000;
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => this.kick(), this.config.SCHEDULE_POLL_TICK_MS);
    this.kick();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.rounds;
  }

  /** A round soon: at once, or after the one under way (one waiting round at most). */
  kick(): void {
    if (this.queued) return;
    void this.pollNow();
  }

  /** Reads what is due now, after any round under way; resolves when done (never rejects). */
  pollNow(): Promise<void> {
    this.queued = true;
    this.rounds = this.rounds.then(async () => {
      this.queued = false;
      try {
        await this.round();
      } catch (error) {
        this.logger.warn(`Reading class schedules failed: ${String(error)}`);
      }
    });
    return this.rounds;
  }

  private async round(): Promise<void> {
    for (;;) {
      const claimed = await this.sources.claimDue(BATCH, this.leaseMs, this.clock.now());
      await Promise.all(claimed.map((source) => this.read(source)));
      if (claimed.length < BATCH) return;
    }
  }

  private async read(source: ClaimedSource): Promise<void> {
    const { outcome, calendar } = await this.outcomeOf(source);
    const now = this.clock.now();
    const nextReadAt = new Date(
      now.getTime() +
        (!source.url
          ? FILE_REFRESH_MS
          : outcome.ok
            ? this.config.SCHEDULE_FEED_INTERVAL_MS
            : backoffMs(
                source.failures + 1,
                this.config.SCHEDULE_FEED_INTERVAL_MS,
                this.config.SCHEDULE_FEED_MAX_BACKOFF_MS,
              )),
    );
    await this.sources.transaction(async (tx) => {
      await this.occurrences.lockPlaces(source.id, tx);
      if (!(await this.sources.recordRead(source, outcome, { now, nextReadAt }, tx))) return;
      // The calendar in use (new, or the last good one) is expanded at each read: the window moves on.
      if (calendar) {
        const read = readSchedule(calendar.text, calendar.format, now, this.config.SCHEDULE_TIME_ZONE);
        await this.occurrences.replace(source.id, read.occurrences, tx);
      }
    });
    if (!outcome.ok) this.logger.warn(`Class schedule ${source.id}: ${outcome.error}`);
  }

  /** How the read went, and the calendar whose classes are in use after it. */
  private async outcomeOf(
    source: ClaimedSource,
  ): Promise<{ outcome: ReadOutcome; calendar: StoredCalendar | null }> {
    const kept = source.calendar;
    const keep = { ok: true as const, calendar: null, etag: source.etag, problems: [] };
    if (!source.url) return { outcome: keep, calendar: kept };
    const answer = await this.fetcher.fetch(source.url, kept ? source.etag : null);
    if (answer.kind === 'unchanged') return { outcome: keep, calendar: kept };
    if (answer.kind === 'failed') return { outcome: { ok: false, error: answer.error }, calendar: kept };
    const format = formatOf(answer.text);
    const read = readSchedule(answer.text, format, this.clock.now(), this.config.SCHEDULE_TIME_ZONE);
    if (read.unreadable) {
      const error = `The feed is not a calendar this server reads: ${problemsText(read.problems)}`;
      return { outcome: { ok: false, error }, calendar: kept };
    }
    const calendar = { text: answer.text, format } as const;
    return { outcome: { ok: true, calendar, etag: answer.etag, problems: read.problems }, calendar };
  }
}
