import { type Room, type RoomCreate, type RoomListItem, type RoomUpdate } from '@cm/contracts';
import { Injectable } from '@nestjs/common';
import { found, notFound } from '../../shared/database/not-found';
import { withParent } from '../../shared/database/sql';
import { InventoryEventBus } from '../../shared/events/inventory-event-bus';
import { RoomRepository } from './room.repository';

/** What follows a room's edit reacts to the events it emits (`room.created`, `.updated`, `.deleted`). */
@Injectable()
export class RoomsService {
  constructor(
    private readonly rooms: RoomRepository,
    private readonly events: InventoryEventBus,
  ) {}

  async listByBuilding(buildingId: string): Promise<RoomListItem[]> {
    return found(await this.rooms.listByBuilding(buildingId), () => notFound.building(buildingId));
  }

  async get(id: string): Promise<Room> {
    return found(await this.rooms.get(id), () => notFound.room(id));
  }

  async create(buildingId: string, room: RoomCreate): Promise<Room> {
    return withParent(
      () =>
        this.events.transaction(this.rooms, async (tx, events) => {
          const created = await this.rooms.create(tx, buildingId, room);
          await events.emit('room.created', { id: created.id, buildingId });
          return created;
        }),
      () => notFound.building(buildingId),
    );
  }

  async update(id: string, changes: RoomUpdate, ifVersion?: number): Promise<Room> {
    const updated = await this.events.transaction(this.rooms, async (tx, events) => {
      const room = await this.rooms.update(tx, id, changes, ifVersion);
      if (room) await events.emit('room.updated', { id, buildingId: room.buildingId });
      return room;
    });
    return found(updated, () => notFound.room(id));
  }

  /** With `ifVersion`, a stale-version error when it is no longer the record's version. */
  async delete(id: string, ifVersion?: number): Promise<void> {
    const deleted = await this.events.transaction(this.rooms, async (tx, events) => {
      const parent = await this.rooms.delete(tx, id, ifVersion);
      if (parent) await events.emit('room.deleted', { id, buildingId: parent.buildingId });
      return parent;
    });
    if (!deleted) throw notFound.room(id);
  }
}
