import { type Room, type RoomCreate, type RoomListItem, type RoomUpdate } from '@cm/contracts';
import { Injectable } from '@nestjs/common';
import { found, notFound } from '../database/not-found';
import { withParent } from '../database/sql';
import { EquipmentEventsRelay } from '../outbox/equipment-events.relay';
import { RoomRepository } from './room.repository';

@Injectable()
export class RoomsService {
  constructor(
    private readonly rooms: RoomRepository,
    private readonly relay: EquipmentEventsRelay,
  ) {}

  async listByBuilding(buildingId: string): Promise<RoomListItem[]> {
    return found(await this.rooms.listByBuilding(buildingId), () => notFound.building(buildingId));
  }

  async get(id: string): Promise<Room> {
    return found(await this.rooms.get(id), () => notFound.room(id));
  }

  create(buildingId: string, room: RoomCreate): Promise<Room> {
    return withParent(
      () => this.rooms.create(buildingId, room),
      () => notFound.building(buildingId),
    );
  }

  async update(id: string, changes: RoomUpdate): Promise<Room> {
    return found(await this.rooms.update(id, changes), () => notFound.room(id));
  }

  async delete(id: string): Promise<void> {
    if (!(await this.rooms.delete(id))) throw notFound.room(id);
    this.relay.kick();
  }
}
