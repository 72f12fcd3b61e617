import { apiRoutes } from '../../lib/api-routes';
import { useQuery } from '@tanstack/react-query';
import { AlertTriangle, ChevronRight } from 'lucide-react';
import { Suspense, useEffect, useState } from 'react';
import { apiQuery } from '../../lib/api';
import { cn } from '../../lib/cn';
import { attentionCounts, attentionSentence } from '../../lib/health';
import { lazyComponent } from '../ui/lazy-component';

export const problemsQuery = apiQuery(apiRoutes.listProblems);

// The list and its dialog are not needed to draw the banner: they come once it is drawn.
const ProblemsDialog = lazyComponent(
  () => import('./problems-dialog'),
  (m) => m.ProblemsDialog,
);

/**
 * The Buildings screen's banner: how much is down or faulty right now; it opens the list. Red
 * while anything is offline, amber for faults alone. Empty: nothing.
 */
export function ProblemsBanner() {
  const problems = useQuery(problemsQuery);
  const [open, setOpen] = useState(false);
  const data = problems.data;
  const shown = data !== undefined && attentionCounts(data).devices > 0;
  // Fetched once the banner is drawn, so that it opens at once, offline too.
  useEffect(() => {
    if (shown) ProblemsDialog.preload();
  }, [shown]);
  if (!data) return null;
  const counts = attentionCounts(data);
  if (counts.devices === 0) return null;
  const down = data.deviceCount > 0;
  return (
    <>
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
      {open ? (
        <Suspense fallback={null}>
          <ProblemsDialog problems={data} withFaults={counts.faults > 0} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
