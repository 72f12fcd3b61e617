import { type Room } from '@cm/contracts';
import {
  Accessibility,
  Cable,
  Camera,
  LayoutGrid,
  Layers,
  Monitor,
  Pencil,
  Ruler,
  Trash2,
  Users,
} from 'lucide-react';
import { type ReactNode } from 'react';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { cn } from '../../../lib/cn';
import { DefaultRoomPicture } from './default-room-picture';

/** The room's photo across the top of its page, with buttons to change or remove it. */
export function RoomPhoto({
  room,
  removeLabel,
  busy,
  onRemove,
  onChange,
}: {
  room: Room;
  removeLabel: string;
  busy: boolean;
  onRemove: () => void;
  onChange: () => void;
}) {
  return (
    <div className="relative -mx-4 -mt-4 overflow-hidden bg-slate-200">
      {room.imageUrl ? (
        // The screen calls it the room photo (Change Room Photo, the default "No room photo yet"),
        // and people and browser tests find it by that name.
        // eslint-disable-next-line jsx-a11y/img-redundant-alt
        <img src={room.imageUrl} alt={`Photo of ${room.name}`} className="h-52 w-full object-cover" />
      ) : (
        <DefaultRoomPicture className="h-52 w-full" />
      )}
      <div className="absolute right-3 bottom-3 flex gap-2">
        {room.imageUrl ? (
          <Button
            variant="secondary"
            size="round"
            aria-label={removeLabel}
            className="bg-white/90 text-red-700"
            disabled={busy}
            onClick={onRemove}
          >
            <Trash2 aria-hidden className="h-6 w-6" />
          </Button>
        ) : null}
        <Button
          variant="secondary"
          size="round"
          aria-label="Change Room Photo"
          className="bg-white/90"
          onClick={onChange}
        >
          <Camera aria-hidden className="h-6 w-6" />
        </Button>
      </div>
    </div>
  );
}

/** The room's facts, and what can be done with it, as tiles two to a row. */
export function RoomTiles({
  room,
  equipmentCount,
  onEdit,
  onWiring,
  onSeating,
}: {
  room: Room;
  equipmentCount: number | undefined;
  onEdit: () => void;
  onWiring: () => void;
  onSeating: () => void;
}) {
  return (
    <div className="grid grid-cols-2 gap-3">
      <Tile icon={<Users aria-hidden className="h-5 w-5" />} label="Capacity" value={String(room.capacity)} />
      <Tile icon={<Layers aria-hidden className="h-5 w-5" />} label="Floor" value={room.floor} text />
      <Tile
        icon={<Ruler aria-hidden className="h-5 w-5" />}
        label="Room Size"
        value={room.roomSize || 'Not specified'}
        text
      />
      <Tile
        icon={<Accessibility aria-hidden className="h-5 w-5" />}
        label="ADA Accessible"
        value={room.isAdaAccessible === 1 ? 'Yes' : 'No'}
        text
      />
      <Tile
        icon={<Monitor aria-hidden className="h-5 w-5" />}
        label="Equipment"
        value={equipmentCount === undefined ? '…' : String(equipmentCount)}
      />
      <ActionTile icon={<Pencil aria-hidden className="h-5 w-5" />} label="Edit Room" onClick={onEdit} />
      <ActionTile
        icon={<Cable aria-hidden className="h-5 w-5" />}
        label={room.wiringDiagramUrl ? 'View Wiring' : 'Upload Wiring'}
        onClick={onWiring}
      />
      <ActionTile
        icon={<LayoutGrid aria-hidden className="h-5 w-5" />}
        label={room.seatingLayoutUrl ? 'View Seating' : 'Upload Seating'}
        onClick={onSeating}
      />
    </div>
  );
}

interface TileProps {
  icon: ReactNode;
  label: string;
  value: string;
  /** Words (a room size, "Not specified") in a size that fits half a 320 px screen. */
  text?: boolean;
}

function Tile({ icon, label, value, text = false }: TileProps) {
  return (
    <Card className="flex min-h-20 flex-col justify-center gap-1 p-3">
      <span className="flex items-center gap-1.5 text-sm text-slate-600">
        {icon}
        {label}
      </span>
      <span
        className={cn('break-words text-slate-900', text ? 'text-lg font-semibold' : 'text-2xl font-bold')}
      >
        {value}
      </span>
    </Card>
  );
}

function ActionTile({ icon, label, onClick }: { icon: ReactNode; label: string; onClick: () => void }) {
  return (
    <button
      type="button"
      onClick={onClick}
      className="flex min-h-20 flex-col items-start justify-center gap-1 rounded-xl border border-slate-200 bg-white p-3 text-left font-semibold text-brand-800 shadow-sm hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-brand-600"
    >
      <span className="text-brand-700">{icon}</span>
      {label}
    </button>
  );
}
