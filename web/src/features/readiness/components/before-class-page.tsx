import { type ReadinessClass, type ReadinessState } from '@cm/contracts';
import { useQuery } from '@tanstack/react-query';
import { Suspense, useState } from 'react';
import { Link } from 'wouter';
import { Badge } from '../../../components/ui/badge';
import { Card } from '../../../components/ui/card';
import { lazyComponent } from '../../../components/ui/lazy-component';
import { LoadError } from '../../../components/ui/load-error';
import { Skeleton } from '../../../components/ui/skeleton';
import { Spinner } from '../../../components/ui/spinner';
import { readinessQuery } from '../api/readiness';

/*
 * The administrators' morning summary, under the day's classes, comes once they are drawn: its
 * settings' answer is checked by zod (a time zone's refinement, a transform), which would otherwise
 * load with the screen (issue 37's 120 kB).
 */
const MorningSummarySection = lazyComponent(
  () => import('./morning-summary-form'),
  (m) => m.MorningSummarySection,
);

const clock = (iso: string) =>
  new Date(iso).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

const stateBadge: Record<ReadinessState, { label: string; variant: 'success' | 'danger' | 'neutral' }> = {
  ready: { label: 'Ready', variant: 'success' },
  'at-risk': { label: 'At risk', variant: 'danger' },
  'not-checked': { label: 'Not checked', variant: 'neutral' },
};

/**
 * "Before class": the classes of the next hours, soonest first, each with its room, time, title
 * and the state the readiness check found (checked READINESS_LEAD_MINUTES before it). An
 * administrator sets the morning summary under it.
 */
export function BeforeClassPage({ isAdmin = false }: { isAdmin?: boolean }) {
  // From the minute the screen opened: one query however long it stays open.
  const [from] = useState(() => new Date(Math.floor(Date.now() / 60_000) * 60_000).toISOString());
  const classes = useQuery({ ...readinessQuery(from), refetchInterval: 60_000 });
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-bold text-slate-900">Before class</h1>
      {classes.isPending ? (
        <Spinner label="Loading classes" />
      ) : classes.isError ? (
        <LoadError what="classes" error={classes.error} onRetry={() => classes.refetch()} />
      ) : classes.data.length === 0 ? (
        <Card className="p-8 text-center text-slate-600">No classes in the next hours</Card>
      ) : (
        <ul className="space-y-3" aria-label="Classes">
          {classes.data.map((c) => (
            <ClassItem key={`${c.room.id}-${c.startsAt}-${c.title}`} item={c} />
          ))}
        </ul>
      )}
      {isAdmin ? (
        <Suspense fallback={<Skeleton className="h-56 w-full" aria-label="Loading the morning summary" />}>
          <MorningSummarySection />
        </Suspense>
      ) : null}
    </div>
  );
}

function ClassItem({ item }: { item: ReadinessClass }) {
  const badge = stateBadge[item.state];
  return (
    <li>
      <Card className="space-y-2 p-4">
        <div className="flex items-start justify-between gap-3">
          <div>
            <p className="font-semibold text-slate-900">
              {clock(item.startsAt)}–{clock(item.endsAt)} {item.title}
            </p>
            <Link href={`/rooms/${item.room.id}`} className="text-sm text-brand-700 underline">
              {item.room.name}, {item.building.name}
            </Link>
          </div>
          <Badge variant={badge.variant}>{badge.label}</Badge>
        </div>
        {item.reasons.length > 0 ? (
          <ul className="list-disc space-y-1 pl-5 text-sm text-red-700">
            {item.reasons.map((reason) => (
              <li key={reason}>{reason}</li>
            ))}
          </ul>
        ) : null}
      </Card>
    </li>
  );
}
