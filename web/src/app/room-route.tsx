import { useQuery } from '@tanstack/react-query';
import { equipmentListQuery } from '../features/equipment/api/equipment';
import { EquipmentSection } from '../features/equipment/components/equipment-section';
import { RoomDetailPage } from '../features/rooms/components/room-detail-page';

/** The room detail with its equipment: two features, composed here. */
export function RoomRoute({ roomId }: { roomId: string }) {
  const equipment = useQuery(equipmentListQuery(roomId));
  return (
    <RoomDetailPage
      roomId={roomId}
      equipmentCount={equipment.data?.length}
      equipment={<EquipmentSection roomId={roomId} />}
    />
  );
}
