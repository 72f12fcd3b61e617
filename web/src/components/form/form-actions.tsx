import { cn } from '../../lib/cn';
import { Button } from '../ui/button';

/**
 * A form's Cancel and submit buttons, side by side. Submit waits while the form is busy; Cancel
 * never does, so a save stuck on a bad signal can always be left. In a dialog that scrolls (a long
 * form on a phone) they stay at its foot, reachable without scrolling to the end.
 */
export function FormActions({
  submitLabel,
  busy,
  onCancel,
  inDialog = true,
}: {
  submitLabel: string;
  busy: boolean;
  onCancel: () => void;
  /** In a dialog's body (its padding), where they stick to its foot; false for a form on a page. */
  inDialog?: boolean;
}) {
  return (
    <div
      data-testid="form-actions"
      className={cn(
        'flex gap-2',
        inDialog ? 'sticky -bottom-4 z-10 -mx-5 -mb-4 border-t border-slate-200 bg-white px-5 py-3' : 'pt-2',
      )}
    >
      <Button variant="outline" className="flex-1" onClick={onCancel}>
        Cancel
      </Button>
      <Button type="submit" className="flex-1" disabled={busy}>
        {submitLabel}
      </Button>
    </div>
  );
}
