import { type RoomListItem } from '@cm/contracts';
import { VirtualList, WHOLE_LIST_LIMIT } from '../../../components/ui/virtual-list';
import { type FloorGroup, groupRoomsByFloor, roomCountLabel } from '../lib/floor-groups';
import { type RoomClasses, sortByNextClass } from '../lib/room-classes';
import { RoomCard } from './room-card';

interface RoomListProps {
  rooms: RoomListItem[];
  /** The rooms' timetable; with `byNextClass`, one list soonest class first instead of floors. */
  classes?: RoomClasses;
  byNextClass?: boolean;
  deletingId?: string;
  onEdit: (room: RoomListItem) => void;
  onDelete: (room: RoomListItem) => void;
}

function FloorHeading({ group }: { group: FloorGroup<RoomListItem> }) {
  return (
    <div className="flex items-baseline justify-between border-b border-slate-300 pb-1">
      <h2 className="text-lg font-semibold text-slate-800">{group.heading}</h2>
      <span className="text-sm text-slate-600">{roomCountLabel(group.rooms.length)}</span>
    </div>
  );
}

type Row =
  { kind: 'floor'; group: FloorGroup<RoomListItem>; first: boolean } | { kind: 'room'; room: RoomListItem };

/**
 * The rooms of a building under one heading per floor, in the spec's floor order, or in one list
 * by their next class. A long list is windowed (VirtualList) as one run of headings and cards.
 */
export function RoomList({ rooms, classes, byNextClass, deletingId, onEdit, onDelete }: RoomListProps) {
  const groups: FloorGroup<RoomListItem>[] =
    byNextClass && classes
      ? [{ floor: null, heading: 'By next class', rooms: sortByNextClass(rooms, classes) }]
      : groupRoomsByFloor(rooms);
  const card = (room: RoomListItem) => (
    <RoomCard
      key={room.id}
      room={room}
      nextClass={classes?.textOf(room.id)}
      deleting={deletingId === room.id}
      onEdit={() => onEdit(room)}
      onDelete={() => onDelete(room)}
    />
  );
  if (rooms.length <= WHOLE_LIST_LIMIT) {
    return (
      <div className="space-y-6">
        {groups.map((group) => (
          <section key={group.floor ?? ''} aria-label={group.heading} className="space-y-3">
            <FloorHeading group={group} />
            {group.rooms.map(card)}
          </section>
        ))}
      </div>
    );
  }
  const rows: Row[] = groups.flatMap((group, i) => [
    { kind: 'floor' as const, group, first: i === 0 },
    ...group.rooms.map((room) => ({ kind: 'room' as const, room })),
  ]);
  return (
    <VirtualList
      items={rows}
      itemKey={(row) => (row.kind === 'floor' ? `floor:${row.group.floor ?? ''}` : row.room.id)}
      // A heading line (with the space above a floor after the first), or a card of three lines.
      estimateHeight={(row) => (row.kind === 'floor' ? (row.first ? 34 : 46) : 110)}
      gap={12}
      renderItem={(row) =>
        row.kind === 'floor' ? (
          <div className={row.first ? undefined : 'pt-3'}>
            <FloorHeading group={row.group} />
          </div>
        ) : (
          card(row.room)
        )
      }
    />
  );
}
