import {
  apiRoutes,
  type Building,
  type BuildingListItem,
  messages,
  type Room,
  type RoomListItem,
  type RouteBody,
  type RouteParams,
} from '@cm/contracts';
import { RpcClient } from '@cm/platform';
import { Body, Controller, Param, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ApiRoute } from '../http/api-route.decorator';
import { IfMatchVersion, versionedWrite, withVersionTag } from '../http/versions';
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
  async get(
    @Param() { id }: RouteParams<typeof apiRoutes.getBuilding>,
    @Res({ passthrough: true }) res: Response,
  ): Promise<Building> {
    return withVersionTag(res, await this.rpc.send(messages.inventory.getBuilding, { id }));
  }

  @ApiRoute(apiRoutes.createBuilding)
  async create(@Body() building: RouteBody<typeof apiRoutes.createBuilding>): Promise<Building> {
    await this.pictures.check(building);
    return this.rpc.send(messages.inventory.createBuilding, building);
  }

  @ApiRoute(apiRoutes.updateBuilding)
  async update(
    @Param() { id }: RouteParams<typeof apiRoutes.updateBuilding>,
    @Body() changes: RouteBody<typeof apiRoutes.updateBuilding>,
    @IfMatchVersion() ifVersion: number | undefined,
  ): Promise<Building> {
    await this.pictures.check(changes);
    return versionedWrite(
      () => this.rpc.send(messages.inventory.updateBuilding, { id, changes, ifVersion }),
      () => this.rpc.send(messages.inventory.getBuilding, { id }),
    );
  }

  @ApiRoute(apiRoutes.deleteBuilding)
  async delete(
    @Param() { id }: RouteParams<typeof apiRoutes.deleteBuilding>,
    @IfMatchVersion() ifVersion: number | undefined,
  ): Promise<void> {
    await versionedWrite(
      () => this.rpc.send(messages.inventory.deleteBuilding, { id, ifVersion }),
      () => this.rpc.send(messages.inventory.getBuilding, { id }),
    );
  }

  @ApiRoute(apiRoutes.listRooms)
  listRooms(@Param() { buildingId }: RouteParams<typeof apiRoutes.listRooms>): Promise<RoomListItem[]> {
    return this.rpc.send(messages.inventory.listRooms, { buildingId });
  }

  @ApiRoute(apiRoutes.createRoom)
  async createRoom(
    @Param() { buildingId }: RouteParams<typeof apiRoutes.createRoom>,
    @Body() room: RouteBody<typeof apiRoutes.createRoom>,
  ): Promise<Room> {
    await this.pictures.check(room);
    return this.rpc.send(messages.inventory.createRoom, { buildingId, room });
  }
}
