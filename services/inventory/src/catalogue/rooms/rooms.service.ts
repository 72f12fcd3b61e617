import { type Room, type RoomCreate, type RoomListItem, type RoomUpdate } from '@cm/contracts';
import { Injectable } from '@nestjs/common';
import { found, notFound } from '../../shared/database/not-found';
import { withParent } from '../../shared/database/sql';
import { LiveEventsPublisher } from '../../shared/live/live-events.publisher';
import { EquipmentEventsRelay } from '../outbox/equipment-events.relay';
import { RoomRepository } from './room.repository';

@Injectable()
export class RoomsService {
  constructor(
    private readonly rooms: RoomRepository,
    private readonly relay: EquipmentEventsRelay,
    private readonly live: LiveEventsPublisher,
  ) {}

  async listByBuilding(buildingId: string): Promise<RoomListItem[]> {
    return found(await this.rooms.listByBuilding(buildingId), () => notFound.building(buildingId));
  }

  async get(id: string): Promise<Room> {
    return found(await this.rooms.get(id), () => notFound.room(id));
  }

  async create(buildingId: string, room: RoomCreate): Promise<Room> {
    const created = await withParent(
      () => this.rooms.create(buildingId, room),
      () => notFound.building(buildingId),
    );
    this.live.inventoryChanged({ kind: 'room', action: 'created', id: created.id, buildingId });
    return created;
  }

  async update(id: string, changes: RoomUpdate): Promise<Room> {
    const updated = found(await this.rooms.update(id, changes), () => notFound.room(id));
    this.live.inventoryChanged({ kind: 'room', action: 'updated', id, buildingId: updated.buildingId });
    return updated;
  }

  async delete(id: string): Promise<void> {
    const deleted = await this.rooms.delete(id);
    if (!deleted) throw notFound.room(id);
    this.relay.kick();
    this.live.inventoryChanged({ kind: 'room', action: 'deleted', id, buildingId: deleted.buildingId });
  }
}
