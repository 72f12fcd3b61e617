import { type RoomListItem } from '@cm/contracts';
import { groupRoomsByFloor, roomCountLabel } from '../lib/floor-groups';
import { RoomCard } from './room-card';

interface RoomListProps {
  rooms: RoomListItem[];
  deletingId?: string;
  onEdit: (room: RoomListItem) => void;
  onDelete: (room: RoomListItem) => void;
}

/** The rooms of a building under one heading per floor, in the spec's floor order. */
export function RoomList({ rooms, deletingId, onEdit, onDelete }: RoomListProps) {
  return (
    <div className="space-y-6">
      {groupRoomsByFloor(rooms).map((group) => (
        <section key={group.floor ?? ''} aria-label={group.heading} className="space-y-3">
          <div className="flex items-baseline justify-between border-b border-slate-300 pb-1">
            <h2 className="text-lg font-semibold text-slate-800">{group.heading}</h2>
            <span className="text-sm text-slate-600">{roomCountLabel(group.rooms.length)}</span>
          </div>
          {group.rooms.map((room) => (
            <RoomCard
              key={room.id}
              room={room}
              deleting={deletingId === room.id}
              onEdit={() => onEdit(room)}
              onDelete={() => onDelete(room)}
            />
          ))}
        </section>
      ))}
    </div>
  );
}
