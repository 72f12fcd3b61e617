import {
  type BuildingCreate,
  buildingCreateSchema,
  type BuildingUpdateMessage,
  buildingUpdateMessageSchema,
  idParamsSchema,
  patterns,
} from '@cm/contracts';
import { ZodPipe } from '@cm/platform';
import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { BuildingsService } from './buildings.service';

@Controller()
export class BuildingsMessageController {
  constructor(private readonly buildings: BuildingsService) {}

  @MessagePattern(patterns.inventory.listBuildings)
  list() {
    return this.buildings.list();
  }

  @MessagePattern(patterns.inventory.getBuilding)
  get(@Payload(new ZodPipe(idParamsSchema)) { id }: { id: string }) {
    return this.buildings.get(id);
  }

  @MessagePattern(patterns.inventory.createBuilding)
  create(@Payload(new ZodPipe(buildingCreateSchema)) building: BuildingCreate) {
    return this.buildings.create(building);
  }

  @MessagePattern(patterns.inventory.updateBuilding)
  update(@Payload(new ZodPipe(buildingUpdateMessageSchema)) { id, changes }: BuildingUpdateMessage) {
    return this.buildings.update(id, changes);
  }

  @MessagePattern(patterns.inventory.deleteBuilding)
  async delete(@Payload(new ZodPipe(idParamsSchema)) { id }: { id: string }) {
    await this.buildings.delete(id);
    return { deleted: true };
  }
}
