import {
  type Building,
  type BuildingCreate,
  type BuildingListItem,
  type BuildingUpdate,
} from '@cm/contracts';
import { Injectable } from '@nestjs/common';
import { found, notFound } from '../database/not-found';
import { EquipmentEventsRelay } from '../outbox/equipment-events.relay';
import { BuildingRepository } from './building.repository';

@Injectable()
export class BuildingsService {
  constructor(
    private readonly buildings: BuildingRepository,
    private readonly relay: EquipmentEventsRelay,
  ) {}

  list(): Promise<BuildingListItem[]> {
    return this.buildings.list();
  }

  async get(id: string): Promise<Building> {
    return found(await this.buildings.get(id), () => notFound.building(id));
  }

  create(building: BuildingCreate): Promise<Building> {
    return this.buildings.create(building);
  }

  async update(id: string, changes: BuildingUpdate): Promise<Building> {
    return found(await this.buildings.update(id, changes), () => notFound.building(id));
  }

  async delete(id: string): Promise<void> {
    if (!(await this.buildings.delete(id))) throw notFound.building(id);
    // The cascade deleted equipment: the monitor hears of it.
    this.relay.kick();
  }
}
