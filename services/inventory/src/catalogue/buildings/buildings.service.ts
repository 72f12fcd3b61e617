import {
  type Building,
  type BuildingCreate,
  type BuildingListItem,
  type BuildingUpdate,
} from '@cm/contracts';
import { Injectable } from '@nestjs/common';
import { found, notFound } from '../../shared/database/not-found';
import { InventoryEventBus } from '../../shared/events/inventory-event-bus';
import { BuildingRepository } from './building.repository';

/**
 * What follows a building's edit reacts to the events it emits (`building.created`, `.updated`,
 * `.deleted`).
 */
@Injectable()
export class BuildingsService {
  constructor(
    private readonly buildings: BuildingRepository,
    private readonly events: InventoryEventBus,
  ) {}

  list(): Promise<BuildingListItem[]> {
    return this.buildings.list();
  }

  async get(id: string): Promise<Building> {
    return found(await this.buildings.get(id), () => notFound.building(id));
  }

  async create(building: BuildingCreate): Promise<Building> {
    return this.events.transaction(this.buildings, async (tx, events) => {
      const created = await this.buildings.create(tx, building);
      await events.emit('building.created', { id: created.id });
      return created;
    });
  }

  async update(id: string, changes: BuildingUpdate, ifVersion?: number): Promise<Building> {
    const updated = await this.events.transaction(this.buildings, async (tx, events) => {
      const updated = await this.buildings.update(tx, id, changes, ifVersion);
      if (updated) await events.emit('building.updated', { id });
      return updated;
    });
    return found(updated, () => notFound.building(id));
  }

  /** With `ifVersion`, a stale-version error when it is no longer the record's version. */
  async delete(id: string, ifVersion?: number): Promise<void> {
    const deleted = await this.events.transaction(this.buildings, async (tx, events) => {
      const deleted = await this.buildings.delete(tx, id, ifVersion);
      if (deleted) await events.emit('building.deleted', { id });
      return deleted;
    });
    if (!deleted) throw notFound.building(id);
  }
}
