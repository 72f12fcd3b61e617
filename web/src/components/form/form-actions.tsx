import { Button } from '../ui/button';

/**
 * A form's Cancel and submit buttons, side by side. Submit waits while the form is busy; Cancel
 * never does, so a save stuck on a bad signal can always be left.
 */
export function FormActions({
  submitLabel,
  busy,
  onCancel,
}: {
  submitLabel: string;
  busy: boolean;
  onCancel: () => void;
}) {
  return (
    <div className="flex gap-2 pt-2">
      <Button variant="outline" className="flex-1" onClick={onCancel}>
        Cancel
      </Button>
      <Button type="submit" className="flex-1" disabled={busy}>
        {submitLabel}
      </Button>
    </div>
  );
}
