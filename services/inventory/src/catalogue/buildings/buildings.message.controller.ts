import {
  type BuildingCreate,
  type BuildingUpdateMessage,
  type DeleteMessage,
  deleted,
  messages,
} from '@cm/contracts';
import { HandleMessage } from '@cm/platform';
import { Controller } from '@nestjs/common';
import { BuildingsService } from './buildings.service';

@Controller()
export class BuildingsMessageController {
  constructor(private readonly buildings: BuildingsService) {}

  @HandleMessage(messages.inventory.listBuildings)
  list() {
    return this.buildings.list();
  }

  @HandleMessage(messages.inventory.getBuilding)
  get({ id }: { id: string }) {
    return this.buildings.get(id);
  }

  @HandleMessage(messages.inventory.createBuilding)
  create(building: BuildingCreate) {
    return this.buildings.create(building);
  }

  @HandleMessage(messages.inventory.updateBuilding)
  update({ id, changes, ifVersion }: BuildingUpdateMessage) {
    return this.buildings.update(id, changes, ifVersion);
  }

  @HandleMessage(messages.inventory.deleteBuilding)
  async delete({ id, ifVersion }: DeleteMessage) {
    await this.buildings.delete(id, ifVersion);
    return deleted;
  }
}
