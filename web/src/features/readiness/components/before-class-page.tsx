import { type ReadinessClass, type ReadinessState } from '@cm/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'wouter';
import { Badge } from '../../../components/ui/badge';
import { Card } from '../../../components/ui/card';
import { LoadError } from '../../../components/ui/load-error';
import { Spinner } from '../../../components/ui/spinner';
import { readinessQuery } from '../api/readiness';
import { MorningSummarySection } from './morning-summary-form';

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
      {isAdmin ? <MorningSummarySection /> : null}
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
