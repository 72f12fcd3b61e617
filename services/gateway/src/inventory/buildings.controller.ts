import {
  apiRoutes,
  type Building,
  type BuildingCreate,
  type BuildingListItem,
  type BuildingUpdate,
  messages,
  type RoomCreate,
  type Room,
  type RoomListItem,
} from '@cm/contracts';
import { RpcClient } from '@cm/platform';
import { Body, Controller, Param } from '@nestjs/common';
import { ApiRoute } from '../http/api-route.decorator';
import { RegisteredPictures } from './registered-pictures.service';

@Controller()
export class BuildingsController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly pictures: RegisteredPictures,
  ) {}

  @ApiRoute(apiRoutes.listBuildings)
  list(): Promise<BuildingListItem[]> {
    return this.rpc.send(messages.inventory.listBuildings);
  }

  @ApiRoute(apiRoutes.getBuilding)
  get(@Param('buildingId') id: string): Promise<Building> {
    return this.rpc.send(messages.inventory.getBuilding, { id });
  }

  @ApiRoute(apiRoutes.createBuilding)
  async create(@Body() building: BuildingCreate): Promise<Building> {
    await this.pictures.check(building);
    return this.rpc.send(messages.inventory.createBuilding, building);
  }

  @ApiRoute(apiRoutes.updateBuilding)
  async update(@Param('id') id: string, @Body() changes: BuildingUpdate): Promise<Building> {
    await this.pictures.check(changes);
    return this.rpc.send(messages.inventory.updateBuilding, { id, changes });
  }

  @ApiRoute(apiRoutes.deleteBuilding)
  async delete(@Param('id') id: string): Promise<void> {
    await this.rpc.send(messages.inventory.deleteBuilding, { id });
  }

  @ApiRoute(apiRoutes.listRooms)
  listRooms(@Param('buildingId') buildingId: string): Promise<RoomListItem[]> {
    return this.rpc.send(messages.inventory.listRooms, { buildingId });
  }

  @ApiRoute(apiRoutes.createRoom)
  async createRoom(@Param('buildingId') buildingId: string, @Body() room: RoomCreate): Promise<Room> {
    await this.pictures.check(room);
    return this.rpc.send(messages.inventory.createRoom, { buildingId, room });
  }
}
