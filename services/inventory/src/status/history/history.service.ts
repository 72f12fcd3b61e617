import {
  type EquipmentHistory,
  type HistoryDay,
  type HistoryHour,
  type HistoryRequest,
  historyWindow,
} from '@cm/contracts';
import { CONFIG } from '@cm/platform';
import { Inject, Injectable } from '@nestjs/common';
import { type Config } from '../../config';
import { notFound } from '../../shared/database/not-found';
import { uptimeFigures } from '../reports/uptime';
import {
  type Counters,
  type DayStats,
  daysOf,
  HOUR_MS,
  type HourStats,
  LOSS_WINDOW_HOURS,
  loss24h,
  mergeCounters,
  utcDay,
  utcHour,
} from '../checks/timeline';
import { HealthService } from '../health/health.service';
import { HistoryRepository } from './history.repository';

const DAY_MS = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
const round = (value: number, decimals: number) => Math.round(value * 10 ** decimals) / 10 ** decimals;

const counters = (c: Counters) => ({
  checks: c.checks,
  answered: c.answered,
  pings: c.pings,
  pingsAnswered: c.pingsAnswered,
  rttMinMs: c.rttMin,
  rttMaxMs: c.rttMax,
  rttAvgMs: c.answered > 0 ? round(c.rttSum / c.answered, 3) : null,
});

/** The stored periods with the state's own (not yet written out) added to its period, in order. */
function withCurrent<S extends Counters, K extends string | number>(
  stored: S[],
  current: S | null,
  periodOf: (s: S) => K,
  inRange: (period: K) => boolean,
): S[] {
  if (!current || current.checks === 0 || !inRange(periodOf(current))) return stored;
  const same = stored.findIndex((s) => periodOf(s) === periodOf(current));
  if (same >= 0) return stored.map((s, i) => (i === same ? mergeCounters(s, current) : s));
  return [...stored, current].sort((a, b) => (periodOf(a) < periodOf(b) ? -1 : 1));
}

@Injectable()
export class HistoryService {
  constructor(
    private readonly history: HistoryRepository,
    private readonly health: HealthService,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  /**
   * An equipment's timeline over the window: spans and uptime up to the window's end or now,
   * whichever is sooner; hour counters where they are kept, day counters for the days before.
   */
  async get({ id, from, to }: HistoryRequest): Promise<EquipmentHistory> {
    const now = Date.now();
    const window = historyWindow({ from, to }, now);
    const state = await this.history.state(id);
    if (!state) throw notFound.equipment(id);
    const end = Math.min(window.to, now);

    // Hours are kept from the first whole UTC day retention leaves; the days before come as days.
    const kept = utcDay(now - this.config.INVENTORY_STATUS_HOURS_RETENTION_DAYS * DAY_MS);
    const hoursFrom = Math.max(utcHour(window.from), Date.parse(kept) + DAY_MS);
    const daysTo = utcDay(hoursFrom);
    const lossFrom = utcHour(now) - (LOSS_WINDOW_HOURS - 1) * HOUR_MS;

    const [spans, storedHours, storedDays, lossHours, uptime, health] = await Promise.all([
      end > window.from ? this.history.spans(id, window.from, end) : [],
      hoursFrom < window.to ? this.history.hours(id, hoursFrom, window.to) : [],
      utcDay(window.from) < daysTo ? this.history.days(id, utcDay(window.from), daysTo) : [],
      this.history.hours(id, lossFrom, now + 1),
      end > window.from ? this.history.uptime(id, window.from, end) : { up: 0, down: 0 },
      end > window.from ? this.health.timeline(id, window.from, end) : { healthSpans: [], firmware: [] },
    ]);
    const hours = withCurrent<HourStats, number>(
      storedHours,
      state.hour,
      (h) => h.hour,
      (h) => h >= hoursFrom && h < window.to,
    );
    // A day row holds the hours written out: an hour still on the state row (a device not checked
    // since) is added to its day.
    const days = withCurrent<DayStats, string>(
      storedDays,
      state.hour && daysOf([state.hour])[0],
      (d) => d.day,
      (d) => d >= utcDay(window.from) && d < daysTo,
    );
    const loss = loss24h(state.hour ? [...lossHours, state.hour] : lossHours, now);
    const figures = uptimeFigures(uptime.up, uptime.down);

    return {
      equipmentId: id,
      from: iso(window.from),
      to: iso(window.to),
      summary: {
        status: state.status,
        statusSince: iso(state.statusAt),
        lastCheckedAt: state.lastCheckedAt === null ? null : iso(state.lastCheckedAt),
        lastRttMs: state.lastRttMs,
        loss24h: { ...loss, percent: loss.percent === null ? null : round(loss.percent, 1) },
        uptime: {
          percent: figures.uptimePercent,
          upHours: figures.uptimeHours,
          downHours: figures.downtimeHours,
        },
      },
      spans: spans.map((s) => ({
        start: iso(Math.max(s.start, window.from)),
        end: iso(Math.min(s.end ?? end, end)),
        status: s.status,
      })),
      hoursFrom: iso(hoursFrom),
      hours: hours.map((h): HistoryHour => ({ hour: iso(h.hour), ...counters(h) })),
      days: days.map((d): HistoryDay => ({ day: d.day, ...counters(d) })),
      ...health,
    };
  }
}
