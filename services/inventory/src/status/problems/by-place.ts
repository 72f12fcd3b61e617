/** Where a device is, as the lists of what is down group it. */
export interface PlaceRow {
  roomId: string;
  roomName: string;
  floor: string;
  buildingId: string;
  buildingName: string;
}

export interface PlaceGroup<D> {
  id: string;
  name: string;
  rooms: { id: string; name: string; floor: string; devices: D[] }[];
}

/**
 * Devices grouped by building and room, in the rows' order: a building and a room come where
 * their first device does (the longest down, when the rows are ordered so).
 */
export function byPlace<R extends PlaceRow, D>(
  rows: readonly R[],
  deviceOf: (row: R) => D,
): { buildings: PlaceGroup<D>[]; roomCount: number } {
  const buildings = new Map<string, PlaceGroup<D>>();
  const rooms = new Map<string, PlaceGroup<D>['rooms'][number]>();
  for (const row of rows) {
    let building = buildings.get(row.buildingId);
    if (!building) {
      building = { id: row.buildingId, name: row.buildingName, rooms: [] };
      buildings.set(row.buildingId, building);
    }
    let room = rooms.get(row.roomId);
    if (!room) {
      room = { id: row.roomId, name: row.roomName, floor: row.floor, devices: [] };
      rooms.set(row.roomId, room);
      building.rooms.push(room);
    }
    room.devices.push(deviceOf(row));
  }
  return { buildings: [...buildings.values()], roomCount: rooms.size };
}
