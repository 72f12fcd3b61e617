import { type Room } from '@cm/contracts';
import { Trash2 } from 'lucide-react';
import { FullScreenViewer } from '../../../components/ui/full-screen-viewer';
import { attachments } from '../lib/attachment-words';

interface SubViewProps {
  room: Room;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onReplace: () => void;
  onRemove: () => void;
}

const replaceButton = (onReplace: () => void) => (
  <button
    type="button"
    onClick={onReplace}
    className="min-h-11 rounded-lg px-3 font-medium text-white/90 hover:bg-white/10"
  >
    Replace
  </button>
);

/** Under the picture rather than beside Close, where the title would lose its words. */
const removeButton = (onRemove: () => void, label: string) => (
  <button
    type="button"
    onClick={onRemove}
    className="flex min-h-11 w-full items-center justify-center gap-2 rounded-lg border border-red-300/60 px-3 font-medium text-red-200 hover:bg-white/10"
  >
    <Trash2 aria-hidden className="h-5 w-5" />
    {label}
  </button>
);

/** Spec section 2: the Wiring Diagram sub-view. */
export function WiringDiagramView({ room, open, onOpenChange, onReplace, onRemove }: SubViewProps) {
  return (
    <FullScreenViewer
      open={open}
      onOpenChange={onOpenChange}
      title="Wiring Diagram"
      actions={replaceButton(onReplace)}
    >
      {room.wiringDiagramUrl ? (
        <div className="space-y-4">
          <img
            src={room.wiringDiagramUrl}
            alt={`Wiring diagram of ${room.name}`}
            className="mx-auto max-h-[80dvh] w-full rounded-lg bg-white object-contain"
          />
          {removeButton(onRemove, attachments.wiringDiagramUrl.removeLabel)}
        </div>
      ) : null}
    </FullScreenViewer>
  );
}

/** Spec section 2: the Seating Layout sub-view, with the room's seating facts. */
export function SeatingLayoutView({
  room,
  equipmentCount,
  open,
  onOpenChange,
  onReplace,
  onRemove,
}: SubViewProps & { equipmentCount: number | undefined }) {
  const facts: [string, string][] = [
    ['Total Seats', String(room.capacity)],
    ['Equipment', equipmentCount === undefined ? '…' : String(equipmentCount)],
    ['Room Size', room.roomSize || 'Not specified'],
    ['Layout Style', room.type],
    ['ADA Accessible', room.isAdaAccessible === 1 ? 'Yes' : 'No'],
  ];
  return (
    <FullScreenViewer
      open={open}
      onOpenChange={onOpenChange}
      title="Seating Layout"
      actions={replaceButton(onReplace)}
    >
      <div className="space-y-4">
        {room.seatingLayoutUrl ? (
          <img
            src={room.seatingLayoutUrl}
            alt={`Seating layout of ${room.name}`}
            className="mx-auto max-h-[60dvh] w-full rounded-lg bg-white object-contain"
          />
        ) : null}
        {room.seatingLayoutUrl ? removeButton(onRemove, attachments.seatingLayoutUrl.removeLabel) : null}
        <dl className="grid grid-cols-2 gap-2" aria-label="Seating facts">
          {facts.map(([label, value]) => (
            <div key={label} className="rounded-lg bg-white/10 p-3">
              <dt className="text-sm text-white/70">{label}</dt>
              <dd className="text-lg font-semibold break-words">{value}</dd>
            </div>
          ))}
        </dl>
      </div>
    </FullScreenViewer>
  );
}
