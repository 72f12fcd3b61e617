import { type Delivery, deliveryStates } from '@cm/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { LoadError } from '../../../components/ui/load-error';
import { Select } from '../../../components/ui/select';
import { Skeleton } from '../../../components/ui/skeleton';
import { IncidentLinks } from './room-alerts';
import { channelsQuery, deliveriesQuery, type DeliveryFilter } from '../api/notifications';

const stateLabels: Record<string, string> = {
  '': 'All states',
  pending: 'Pending',
  sending: 'Sending',
  sent: 'Sent',
  failed: 'Failed',
};
const stateBadges: Record<Delivery['state'], 'neutral' | 'success' | 'warning' | 'danger'> = {
  pending: 'warning',
  sending: 'neutral',
  sent: 'success',
  failed: 'danger',
};

/** Every delivery and its outcome, newest first, a page at a time. */
export function DeliveryLog() {
  const channels = useQuery(channelsQuery).data ?? [];
  const [filter, setFilter] = useState<DeliveryFilter>({});
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors.at(-1);
  const log = useQuery({
    ...deliveriesQuery({ ...filter, ...(cursor ? { cursor } : {}) }),
    refetchInterval: (q) =>
      q.state.data?.items.some((d) => d.state === 'pending' || d.state === 'sending') ? 5000 : false,
  });
  const names = new Map(channels.map((c) => [c.id, c.name]));
  const applied = (next: DeliveryFilter) => {
    setFilter(next);
    setCursors([]);
  };

  return (
    <Card className="space-y-3 p-4">
      <h2 className="text-lg font-semibold text-slate-900">Delivery Log</h2>
      <div className="grid grid-cols-2 gap-2">
        <Select
          aria-label="Filter by channel"
          value={filter.channelId ?? 'all'}
          onValueChange={(v) => applied({ ...filter, channelId: v === 'all' ? undefined : v })}
          options={['all', ...channels.map((c) => c.id)]}
          labelOf={(v) => (v === 'all' ? 'All channels' : (names.get(v) ?? v))}
          placeholder="All channels"
        />
        <Select
          aria-label="Filter by state"
          value={filter.state ?? 'all'}
          onValueChange={(v) => applied({ ...filter, state: v === 'all' ? undefined : v })}
          options={['all', ...deliveryStates]}
          labelOf={(v) => stateLabels[v === 'all' ? '' : v]}
          placeholder="All states"
        />
      </div>
      {log.isPending ? (
        <Skeleton className="h-16 w-full" />
      ) : log.isError ? (
        <LoadError what="delivery log" error={log.error} onRetry={() => log.refetch()} />
      ) : log.data.items.length === 0 ? (
        <p className="text-sm text-slate-600">Nothing sent yet.</p>
      ) : (
        <ul className="divide-y divide-slate-200">
          {log.data.items.map((d) => (
            <DeliveryItem key={d.id} delivery={d} />
          ))}
        </ul>
      )}
      <div className="flex justify-between gap-2">
        <Button
          variant="outline"
          disabled={cursors.length === 0}
          onClick={() => setCursors((c) => c.slice(0, -1))}
        >
          Newer
        </Button>
        <Button
          variant="outline"
          disabled={!log.data?.nextCursor}
          onClick={() => log.data?.nextCursor && setCursors((c) => [...c, log.data.nextCursor!])}
        >
          Older
        </Button>
      </div>
    </Card>
  );
}

function DeliveryItem({ delivery: d }: { delivery: Delivery }) {
  return (
    <li className="space-y-1 py-2" data-testid="delivery">
      <div className="flex flex-wrap items-center gap-1.5">
        <Badge variant={stateBadges[d.state]}>{stateLabels[d.state]}</Badge>
        <span className="text-sm font-medium break-words text-slate-900">{d.channelName}</span>
        <span className="text-xs text-slate-600">
          {d.kind} · {new Date(d.createdAt).toLocaleString()}
          {d.attempts > 1 ? ` · ${d.attempts} attempts` : ''}
        </span>
      </div>
      <p className="text-sm break-words text-slate-700">{d.text}</p>
      {d.incident ? <IncidentLinks incidents={[d.incident]} /> : null}
      {d.lastError ? <p className="text-sm break-words text-red-700">{d.lastError}</p> : null}
    </li>
  );
}
