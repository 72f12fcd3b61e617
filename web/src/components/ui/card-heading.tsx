import { type LucideIcon, Plus } from 'lucide-react';
import { Button } from './button';

/** A settings card's title with its icon, and the button that adds to what the card lists. */
export function CardHeading({
  icon: Icon,
  title,
  addLabel,
  onAdd,
}: {
  icon: LucideIcon;
  title: string;
  addLabel: string;
  onAdd: () => void;
}) {
  return (
    <div className="flex items-center justify-between gap-2">
      <div className="flex items-center gap-2">
        <Icon aria-hidden className="h-5 w-5 text-brand-700" />
        <h2 className="text-lg font-semibold text-slate-900">{title}</h2>
      </div>
      <Button variant="outline" onClick={onAdd}>
        <Plus aria-hidden className="h-4 w-4" />
        {addLabel}
      </Button>
    </div>
  );
}
