import { Dialog, DialogContent } from '../../components/ui/dialog';
import { type OutboxEntry } from '../../lib/offline/outbox';
import { OutboxList } from './outbox-list';

/** The list of waiting changes, in a dialog; its code comes when it is first opened. */
export function OutboxDialog({ entries, onClose }: { entries: OutboxEntry[]; onClose: () => void }) {
  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent title="Waiting changes" description="Kept on this phone until the server has them.">
        <OutboxList entries={entries} onOpenForm={onClose} />
      </DialogContent>
    </Dialog>
  );
}
