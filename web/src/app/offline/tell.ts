import { toast } from '../../components/ui/use-toast';
import { type FlushResult } from '../../lib/offline/outbox';

/** Refreshes the screens after a round that did something, and says what it did. */
export function tell({ sent, conflicts, refused }: FlushResult, refreshScreens: () => void): void {
  refreshScreens();
  if (sent.length)
    toast({
      title: 'Changes sent',
      description: `${sent.length} ${sent.length === 1 ? 'change' : 'changes'} saved on the server.`,
    });
  if (conflicts.length || refused.length)
    toast({
      title: 'Changes need you',
      description: 'Open the waiting changes: some were changed elsewhere or refused.',
      variant: 'destructive',
    });
}
