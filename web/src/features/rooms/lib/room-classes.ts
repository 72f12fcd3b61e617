import { type ScheduleOccurrence } from '@cm/contracts';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { nextClassOrder, nextClassText } from '../../../lib/next-class';
import { useNow } from '../../../lib/use-now';
import { buildingClassesQuery } from '../api/rooms';

const HOUR_MS = 3_600_000;

export interface RoomClasses {
  /** Whether any room of the building has a class ahead: sorting by it means something. */
  any: boolean;
  /** "Next class 10:00–11:15, ECON 101", "In use until 11:15", or null. */
  textOf(roomId: string): string | null;
  /** Sort key: the start of the class in the room now or next; Infinity without one. */
  orderOf(roomId: string): number;
}

/**
 * The timetable of a building's rooms as their cards show it. The week from the hour the screen
 * opened, fetched once; the lines follow the clock without another request.
 */
export function useRoomClasses(buildingId: string): RoomClasses {
  const [from] = useState(() => new Date(Math.floor(Date.now() / HOUR_MS) * HOUR_MS).toISOString());
  const classes = useQuery(buildingClassesQuery(buildingId, from));
  const now = useNow(30_000);
  return useMemo(() => {
    const byRoom = new Map<string, ScheduleOccurrence[]>();
    for (const c of classes.data ?? []) {
      if (!c.roomId) continue;
      const list = byRoom.get(c.roomId);
      if (list) list.push(c);
      else byRoom.set(c.roomId, [c]);
    }
    const of = (roomId: string) => byRoom.get(roomId) ?? [];
    return {
      any: [...byRoom.values()].some((list) => nextClassOrder(list, now) < Infinity),
      textOf: (roomId) => nextClassText(of(roomId), now),
      orderOf: (roomId) => nextClassOrder(of(roomId), now),
    };
  }, [classes.data, now]);
}

/** Rooms by their next class (in use first), rooms without one last; ties by name. */
export function sortByNextClass<T extends { id: string; name: string }>(
  rooms: T[],
  classes: RoomClasses,
): T[] {
  const keyed = rooms.map((room) => ({ room, key: classes.orderOf(room.id) }));
  keyed.sort(
    (a, b) =>
      (a.key === b.key ? 0 : a.key < b.key ? -1 : 1) ||
      a.room.name.localeCompare(b.room.name, undefined, { numeric: true, sensitivity: 'base' }),
  );
  return keyed.map((k) => k.room);
}
