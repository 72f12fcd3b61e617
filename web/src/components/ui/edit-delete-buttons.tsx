import { Pencil, Trash2 } from 'lucide-react';
import { Button } from './button';

interface EditDeleteButtonsProps {
  /** What the buttons act on, for their accessible names ("Edit Science Hall"). */
  name: string;
  deleting: boolean;
  onEdit: () => void;
  onDelete: () => void;
}

export function EditDeleteButtons({ name, deleting, onEdit, onDelete }: EditDeleteButtonsProps) {
  return (
    <div className="flex shrink-0">
      <Button variant="ghost" size="icon" aria-label={`Edit ${name}`} onClick={onEdit}>
        <Pencil aria-hidden className="h-5 w-5" />
      </Button>
      <Button
        variant="ghost"
        size="icon"
        className="text-red-600 hover:bg-red-50"
        aria-label={`Delete ${name}`}
        disabled={deleting}
        onClick={onDelete}
      >
        <Trash2 aria-hidden className="h-5 w-5" />
      </Button>
    </div>
  );
}
