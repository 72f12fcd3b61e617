import { type Problems } from '@cm/contracts';
import { apiRoutes } from '../../lib/api-routes';
import { useQuery } from '@tanstack/react-query';
import { AlertTriangle, ChevronRight } from 'lucide-react';
import { useState } from 'react';
import { apiQuery } from '../../lib/api';
import { cn } from '../../lib/cn';
import { attentionCounts, attentionSentence } from '../../lib/health';
import { Badge } from '../ui/badge';
import { Dialog, DialogContent } from '../ui/dialog';
import { FaultList } from './fault-list';
import { ByPlace } from './problem-places';
import { statusWord } from '../../lib/status-words';

export const problemsQuery = apiQuery(apiRoutes.listProblems);

/**
 * The Buildings screen's banner: how much is down or faulty right now; it opens the list. Red
 * while anything is offline, amber for faults alone. Empty: nothing.
 */
export function ProblemsBanner() {
  const problems = useQuery(problemsQuery);
  const [open, setOpen] = useState(false);
  const data = problems.data;
  if (!data) return null;
  const counts = attentionCounts(data);
  if (counts.devices === 0) return null;
  const down = data.deviceCount > 0;
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <button
        type="button"
        onClick={() => setOpen(true)}
        className={cn(
          'flex min-h-11 w-full items-center gap-3 rounded-xl border px-4 py-3 text-left text-sm font-medium focus-visible:outline-2',
          down
            ? 'border-red-200 bg-red-50 text-red-800 hover:bg-red-100 focus-visible:outline-red-600'
            : 'border-amber-200 bg-amber-50 text-amber-900 hover:bg-amber-100 focus-visible:outline-amber-600',
        )}
      >
        <AlertTriangle
          aria-hidden
          className={cn('h-5 w-5 shrink-0', down ? 'text-red-600' : 'text-amber-600')}
        />
        <span className="flex-1">{attentionSentence(counts.devices, counts.rooms, counts.faults)}</span>
        <ChevronRight aria-hidden className="h-5 w-5 shrink-0" />
      </button>
      <DialogContent
        title="Needs attention"
        description={
          counts.faults > 0
            ? 'Inactive or partial now, then faults, each longest first.'
            : 'Inactive or partial now, longest down first.'
        }
      >
        <ProblemLists problems={data} onNavigate={() => setOpen(false)} />
      </DialogContent>
    </Dialog>
  );
}

function ProblemLists({ problems, onNavigate }: { problems: Problems; onNavigate: () => void }) {
  // When the list opened: the durations it shows are as of then.
  const [now] = useState(Date.now);
  return (
    <div className="space-y-6">
      {problems.buildings.length > 0 ? (
        <ProblemList problems={problems} now={now} onNavigate={onNavigate} />
      ) : null}
      {problems.faults && problems.faults.deviceCount > 0 ? (
        <FaultList faults={problems.faults} now={now} onNavigate={onNavigate} />
      ) : null}
    </div>
  );
}

function ProblemList({
  problems,
  now,
  onNavigate,
}: {
  problems: Problems;
  now: number;
  onNavigate: () => void;
}) {
  return (
    <div className="space-y-5" data-testid="problem-list">
      <ByPlace
        buildings={problems.buildings}
        now={now}
        testId="problem-device"
        onNavigate={onNavigate}
        badge={(device) => (
          <Badge variant={device.status === 'inactive' ? 'danger' : 'warning'}>
            {statusWord(device.status)}
          </Badge>
        )}
      />
    </div>
  );
}
