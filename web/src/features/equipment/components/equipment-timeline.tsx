import { type EquipmentHistory, type HistorySpan } from '@cm/contracts';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode } from 'react';
import { LoadError } from '../../../components/ui/load-error';
import { Skeleton } from '../../../components/ui/skeleton';
import { cn } from '../../../lib/cn';
import { equipmentHistoryQuery } from '../api/equipment-history';
import { statusIndicator, toneDotClass } from '../lib/status';
import { duration, timeAgo } from '../../../lib/time';
import { FactList } from './fact-list';

const exact = (iso: string) => new Date(iso).toLocaleString();
const percent = (value: number) => `${value.toFixed(1)} %`;

/**
 * The Equipment Details dialog's timeline: the monitor's last word, the 24-hour loss, uptime and
 * a strip of the status over the last 30 days, like a status page.
 */
export function EquipmentTimeline({ equipmentId }: { equipmentId: string }) {
  const history = useQuery(equipmentHistoryQuery(equipmentId));
  return (
    <section aria-labelledby="timeline-heading" className="space-y-3">
      <h3 id="timeline-heading" className="text-sm font-semibold text-slate-900">
        Last 30 Days
      </h3>
      {history.isPending ? (
        <div role="status" aria-busy="true" aria-label="Loading history" className="space-y-2">
          <Skeleton className="h-16 w-full" />
          <Skeleton className="h-6 w-full" />
        </div>
      ) : history.isError ? (
        <LoadError what="history" error={history.error} onRetry={() => history.refetch()} />
      ) : (
        <TimelineBody history={history.data} />
      )}
    </section>
  );
}

function TimelineBody({ history }: { history: EquipmentHistory }) {
  const { summary } = history;
  const now = Date.parse(history.to);
  const rows: [string, ReactNode][] = [
    [
      'Last Checked',
      summary.lastCheckedAt ? (
        <time dateTime={summary.lastCheckedAt} title={exact(summary.lastCheckedAt)}>
          {timeAgo(Date.parse(summary.lastCheckedAt), now)}
        </time>
      ) : (
        'Not checked yet'
      ),
    ],
    [
      'Last Round Trip',
      summary.lastRttMs !== null
        ? `${summary.lastRttMs.toFixed(1)} ms`
        : summary.lastCheckedAt
          ? 'No answer'
          : 'Not checked yet',
    ],
    [
      '24-Hour Loss',
      summary.loss24h.percent === null ? (
        'No checks in the last 24 hours'
      ) : (
        <span title={`${summary.loss24h.unanswered} of ${summary.loss24h.pings} pings unanswered`}>
          {percent(summary.loss24h.percent)}{' '}
          <span className="text-slate-600">
            ({summary.loss24h.unanswered} of {summary.loss24h.pings}{' '}
            {summary.loss24h.pings === 1 ? 'ping' : 'pings'})
          </span>
        </span>
      ),
    ],
    uptimeRow(history),
  ];
  return (
    <div className="space-y-3">
      <FactList rows={rows} data-testid="timeline-figures" />
      <StatusStrip spans={history.spans} from={Date.parse(history.from)} to={now} />
    </div>
  );
}

/**
 * "30-Day Uptime 99.1 %" once it has been watched the whole window; before that the figure is of a
 * shorter time, and says which: "Uptime 85.9 % over 3 min" (from its first recorded status).
 */
function uptimeRow({ summary, spans, from, to }: EquipmentHistory): [string, ReactNode] {
  const { percent: value } = summary.uptime;
  const watchedFrom = spans.length ? Date.parse(spans[0].start) : null;
  const whole = watchedFrom === null || watchedFrom <= Date.parse(from);
  if (value === null) return [whole ? '30-Day Uptime' : 'Uptime', 'No uptime recorded yet'];
  if (whole) return ['30-Day Uptime', percent(value)];
  const watched = Date.parse(to) - watchedFrom;
  return ['Uptime', `${percent(value)} over ${watched < 60_000 ? 'its first minute' : duration(watched)}`];
}

interface Piece {
  key: string;
  start: number;
  end: number;
  label: string;
  className: string;
  status: string;
}

/** Coloured runs of one status across the window; before the first one, no history. */
function StatusStrip({ spans, from, to }: { spans: HistorySpan[]; from: number; to: number }) {
  if (spans.length === 0) return <p className="text-sm text-slate-600">No history yet</p>;
  const pieces: Piece[] = spans.map((s) => {
    const { label, tone } = statusIndicator(s.status);
    return {
      key: s.start,
      start: Date.parse(s.start),
      end: Date.parse(s.end),
      label,
      className: toneDotClass[tone],
      status: s.status,
    };
  });
  if (pieces[0].start > from) {
    pieces.unshift({
      key: 'none',
      start: from,
      end: pieces[0].start,
      label: 'No history',
      className: 'bg-slate-200',
      status: 'none',
    });
  }
  const whole = to - from;
  return (
    <div className="space-y-1">
      <ol
        aria-label="Status over the last 30 days"
        data-testid="status-strip"
        className="flex h-6 w-full overflow-hidden rounded-md"
      >
        {pieces.map((p) => {
          const text = `${p.label} from ${new Date(p.start).toLocaleString()} to ${new Date(p.end).toLocaleString()} (${duration(p.end - p.start)})`;
          return (
            <li
              key={p.key}
              title={text}
              data-status={p.status}
              className={cn('h-full flex-none', p.className)}
              style={{ width: `${((p.end - p.start) / whole) * 100}%` }}
            >
              <span className="sr-only">{text}</span>
            </li>
          );
        })}
      </ol>
      <div aria-hidden className="flex justify-between text-xs text-slate-600">
        <span>30 days ago</span>
        <span>Now</span>
      </div>
    </div>
  );
}
