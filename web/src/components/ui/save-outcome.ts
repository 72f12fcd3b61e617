import { isConflicted, isQueued } from '../../lib/offline/markers';
import { toast } from './use-toast';

/**
 * Spec section 8, a save's toasts: "Success" saying what was done, or "Error" saying what failed.
 * A save kept on the phone (offline) or refused as made on an older version says so instead; the
 * form closes either way, its values safe in the list of waiting changes.
 */
export function saveOutcome({ done, failed, onDone }: { done: string; failed: string; onDone?: () => void }) {
  return {
    onSuccess: (result?: unknown) => {
      if (isQueued(result))
        toast({ title: 'Saved on this phone', description: 'It will be sent when the connection is back.' });
      else if (isConflicted(result))
        toast({
          title: 'Changed elsewhere',
          description:
            'Someone else saved this meanwhile. Open the waiting changes to compare both versions.',
          variant: 'destructive',
        });
      else toast({ title: 'Success', description: done });
      onDone?.();
    },
    onError: () => toast({ title: 'Error', description: failed, variant: 'destructive' }),
  };
}
