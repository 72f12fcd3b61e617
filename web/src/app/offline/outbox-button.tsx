import { CloudUpload } from 'lucide-react';
import { Suspense, useState } from 'react';
import { useOutbox } from '../../lib/offline/outbox-entries';
import { lazyScreen } from '../lazy-screen';

const OutboxDialog = lazyScreen(
  () => import('./outbox-dialog'),
  (m) => m.OutboxDialog,
);

/** The header's count of changes waiting on this phone; it opens their list. Hidden when none wait. */
export function OutboxButton() {
  const entries = useOutbox();
  const [open, setOpen] = useState(false);
  if (entries.length === 0) return null;
  const count = entries.length;
  const needYou = entries.some((e) => e.state !== 'waiting');
  const name = `${count} ${count === 1 ? 'change' : 'changes'} waiting`;
  return (
    <>
      <button
        type="button"
        aria-label={name}
        title={name}
        onClick={() => setOpen(true)}
        className="relative flex h-11 w-11 shrink-0 items-center justify-center rounded-lg hover:bg-white/15"
      >
        <CloudUpload aria-hidden className="h-6 w-6" />
        <span
          aria-hidden
          data-testid="outbox-count"
          className={`absolute top-1 right-0.5 min-w-5 rounded-full px-1 text-center text-xs leading-5 font-bold ${
            needYou ? 'bg-red-600 text-white' : 'bg-amber-300 text-slate-900'
          }`}
        >
          {count}
        </span>
      </button>
      {open ? (
        <Suspense fallback={null}>
          <OutboxDialog entries={entries} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
