import { type RoomListItem } from '@cm/contracts';
import { CalendarClock, Monitor, Users } from 'lucide-react';
import { Link } from 'wouter';
import { Badge } from '../../../components/ui/badge';
import { Card } from '../../../components/ui/card';
import { EditDeleteButtons } from '../../../components/ui/edit-delete-buttons';
import { FaultChip } from '../../../components/health/fault-chip';
import { PendingTag } from '../../../components/ui/pending-tag';
import { StatusChips } from '../../../components/health/status-chips';
import { roomTags } from '../lib/room-tags';

interface RoomCardProps {
  room: RoomListItem;
  /** Its timetable in a line ("Next class 10:00–11:15, ECON 101"), when it has classes ahead. */
  nextClass?: string | null;
  deleting: boolean;
  onEdit: () => void;
  onDelete: () => void;
}

export function RoomCard({ room, nextClass, deleting, onEdit, onDelete }: RoomCardProps) {
  const tags = roomTags(room.type);
  return (
    <Card className="flex items-start gap-1 p-4 pr-2" data-testid="room-card">
      <Link
        href={`/rooms/${room.id}`}
        className="min-w-0 flex-1 focus-visible:outline-2 focus-visible:outline-brand-600"
      >
        <h3 className="text-base font-semibold break-words text-slate-900">{room.name}</h3>
        <p className="text-sm text-slate-600">
          {room.type} · Floor {room.floor}
        </p>
        <p className="mt-1 flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-700">
          <span className="inline-flex items-center gap-1">
            <Users aria-hidden className="h-4 w-4 text-slate-600" />
            Capacity {room.capacity}
          </span>
          <span className="inline-flex items-center gap-1">
            <Monitor aria-hidden className="h-4 w-4 text-slate-600" />
            {room.equipmentCount} Equipment
          </span>
        </p>
        {nextClass ? (
          <p className="mt-1 flex items-center gap-1 text-sm text-slate-700" data-testid="next-class">
            <CalendarClock aria-hidden className="h-4 w-4 shrink-0 text-brand-700" />
            {nextClass}
          </p>
        ) : null}
        <StatusChips counts={room.statusCounts} />
        <FaultChip count={room.faults} className="mt-2" />
        <PendingTag record={`Room:${room.id}`} className="mt-2" />
        {tags.length > 0 ? (
          <div className="mt-2 flex flex-wrap gap-1.5">
            {tags.map((tag) => (
              <Badge key={tag}>{tag}</Badge>
            ))}
          </div>
        ) : null}
      </Link>
      <EditDeleteButtons name={room.name} deleting={deleting} onEdit={onEdit} onDelete={onDelete} />
    </Card>
  );
}
