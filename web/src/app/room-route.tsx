import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { FaultChip } from '../components/health/fault-chip';
import { RecentChanges } from '../features/audit/components/recent-changes';
import { equipmentListQuery } from '../features/equipment/api/equipment';
import { EquipmentSection } from '../features/equipment/components/equipment-section';
import { MaintenanceNotice, MaintenanceSection } from '../features/maintenance/components/room-maintenance';
import { RoomAlerts } from '../features/notifications/components/room-alerts';
import { roomQuery } from '../features/rooms/api/rooms';
import { RoomDetailPage } from '../features/rooms/components/room-detail-page';
import { NextClass } from '../features/schedules/components/next-class';

/**
 * The room detail with its next class, equipment (and a chip for their faults), open alert, maintenance windows
 * and, for administrators, its recent changes: features composed here.
 */
export function RoomRoute({ roomId, isAdmin = false }: { roomId: string; isAdmin?: boolean }) {
  const equipment = useQuery(equipmentListQuery(roomId));
  const room = useQuery(roomQuery(roomId));
  // The windows that end after the screen opened: the notice and the section share the query.
  const [from] = useState(() => new Date().toISOString());
  const targets = useMemo(
    () =>
      room.data && {
        roomId,
        buildingId: room.data.buildingId,
        equipment: (equipment.data ?? []).map(({ id, name }) => ({ id, name })),
      },
    [roomId, room.data, equipment.data],
  );
  return (
    <RoomDetailPage
      roomId={roomId}
      equipmentCount={equipment.data?.length}
      notice={
        <>
          <NextClass roomId={roomId} />
          <FaultChip equipment={equipment.data ?? []} />
          <MaintenanceNotice roomId={roomId} from={from} />
          {/* Under the name, where a phone shows it without scrolling: the bottom bar hid it lower. */}
          <RoomAlerts roomId={roomId} />
        </>
      }
      maintenance={targets ? <MaintenanceSection roomId={roomId} from={from} targets={targets} /> : null}
      equipment={<EquipmentSection roomId={roomId} />}
      changes={isAdmin ? <RecentChanges entityType="room" entityId={roomId} /> : null}
    />
  );
}
