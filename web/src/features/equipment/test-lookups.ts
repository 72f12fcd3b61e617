import { type EquipmentOption, type Room } from '@cm/contracts';

/**
 * The answers to what the equipment form asks first, in order: the room (for its building), then
 * the building's equipment (the upstream choices).
 */
export function formLookups(room: Pick<Room, 'id' | 'buildingId'>, equipment: EquipmentOption[] = []) {
  return [
    {
      status: 200,
      body: {
        ...room,
        name: '204',
        type: 'Classroom',
        floor: '2',
        capacity: 40,
        roomSize: null,
        isAdaAccessible: 1,
        imageUrl: null,
        wiringDiagramUrl: null,
        seatingLayoutUrl: null,
        version: 1,
      },
    },
    { status: 200, body: equipment },
  ];
}
