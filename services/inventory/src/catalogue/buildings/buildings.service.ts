import {
  type Building,
  type BuildingCreate,
  type BuildingListItem,
  type BuildingUpdate,
} from '@cm/contracts';
import { Injectable } from '@nestjs/common';
import { found, notFound } from '../../shared/database/not-found';
import { LiveEventsPublisher } from '../../shared/live/live-events.publisher';
import { EquipmentEventsRelay } from '../outbox/equipment-events.relay';
import { BuildingRepository } from './building.repository';

@Injectable()
export class BuildingsService {
  constructor(
    private readonly buildings: BuildingRepository,
    private readonly relay: EquipmentEventsRelay,
    private readonly live: LiveEventsPublisher,
  ) {}

  list(): Promise<BuildingListItem[]> {
    return this.buildings.list();
  }

  async get(id: string): Promise<Building> {
    return found(await this.buildings.get(id), () => notFound.building(id));
  }

  async create(building: BuildingCreate): Promise<Building> {
    const created = await this.buildings.create(building);
    this.live.inventoryChanged({ kind: 'building', action: 'created', id: created.id });
    return created;
  }

  async update(id: string, changes: BuildingUpdate): Promise<Building> {
    const updated = found(await this.buildings.update(id, changes), () => notFound.building(id));
    this.live.inventoryChanged({ kind: 'building', action: 'updated', id });
    return updated;
  }

  async delete(id: string): Promise<void> {
    if (!(await this.buildings.delete(id))) throw notFound.building(id);
    // The cascade deleted equipment: the monitor hears of it.
    this.relay.kick();
    this.live.inventoryChanged({ kind: 'building', action: 'deleted', id });
  }
}
