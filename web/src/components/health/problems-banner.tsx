import { apiRoutes, type Problems } from '@cm/contracts';
import { useQuery } from '@tanstack/react-query';
import { AlertTriangle, ChevronRight } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import { apiQuery } from '../../lib/api';
import { attentionSentence, downFor } from '../../lib/health';
import { Badge } from '../ui/badge';
import { Dialog, DialogContent } from '../ui/dialog';

export const problemsQuery = apiQuery(apiRoutes.listProblems);

/** The Buildings screen's banner: how much is down right now; it opens the list. Empty: nothing. */
export function ProblemsBanner() {
  const problems = useQuery(problemsQuery);
  const [open, setOpen] = useState(false);
  const data = problems.data;
  if (!data || data.deviceCount === 0) return null;
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <button
        type="button"
        onClick={() => setOpen(true)}
        className="flex min-h-11 w-full items-center gap-3 rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-left text-sm font-medium text-red-800 hover:bg-red-100 focus-visible:outline-2 focus-visible:outline-red-600"
      >
        <AlertTriangle aria-hidden className="h-5 w-5 shrink-0 text-red-600" />
        <span className="flex-1">{attentionSentence(data.deviceCount, data.roomCount)}</span>
        <ChevronRight aria-hidden className="h-5 w-5 shrink-0" />
      </button>
      <DialogContent title="Needs attention" description="Offline or partial now, longest down first.">
        <ProblemList problems={data} onNavigate={() => setOpen(false)} />
      </DialogContent>
    </Dialog>
  );
}

function ProblemList({ problems, onNavigate }: { problems: Problems; onNavigate: () => void }) {
  // When the list opened: the durations it shows are as of then.
  const [now] = useState(Date.now);
  return (
    <div className="space-y-5" data-testid="problem-list">
      {problems.buildings.map((building) => (
        <section key={building.id} aria-label={building.name}>
          <h3 className="text-base font-semibold text-slate-900">{building.name}</h3>
          <ul className="mt-2 space-y-3">
            {building.rooms.map((room) => (
              <li key={room.id} className="rounded-lg border border-slate-200">
                <Link
                  href={`/rooms/${room.id}`}
                  onClick={onNavigate}
                  className="flex min-h-11 items-center justify-between gap-2 rounded-t-lg bg-slate-50 px-3 py-2 text-sm font-medium text-brand-800 hover:bg-slate-100"
                >
                  <span>
                    {room.name} <span className="font-normal text-slate-600">· Floor {room.floor}</span>
                  </span>
                  <ChevronRight aria-hidden className="h-4 w-4" />
                </Link>
                <ul className="divide-y divide-slate-100">
                  {room.devices.map((device) => (
                    <li key={device.id} className="px-3 py-2 text-sm" data-testid="problem-device">
                      <div className="flex items-center justify-between gap-2">
                        <span className="font-medium break-words text-slate-900">{device.name}</span>
                        <Badge variant={device.status === 'inactive' ? 'danger' : 'warning'}>
                          {device.status === 'inactive' ? 'Inactive' : 'Partial'}
                        </Badge>
                      </div>
                      <div className="mt-0.5 flex flex-wrap justify-between gap-x-3 text-slate-600">
                        <span className="font-mono text-xs">{device.ipAddress ?? 'No address'}</span>
                        <time dateTime={device.since} title={new Date(device.since).toLocaleString()}>
                          for {downFor(device.since, now)}
                        </time>
                      </div>
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
