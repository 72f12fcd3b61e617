import {
  apiRoutes,
  type Equipment,
  messages,
  type Room,
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
export class RoomsController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly pictures: RegisteredPictures,
  ) {}

  @ApiRoute(apiRoutes.getRoom)
  async get(
    @Param() { id }: RouteParams<typeof apiRoutes.getRoom>,
    @Res({ passthrough: true }) res: Response,
  ): Promise<Room> {
    return withVersionTag(res, await this.rpc.send(messages.inventory.getRoom, { id }));
  }

  @ApiRoute(apiRoutes.updateRoom)
  async update(
    @Param() { id }: RouteParams<typeof apiRoutes.updateRoom>,
    @Body() changes: RouteBody<typeof apiRoutes.updateRoom>,
    @IfMatchVersion() ifVersion: number | undefined,
  ): Promise<Room> {
    await this.pictures.check(changes);
    return versionedWrite(
      () => this.rpc.send(messages.inventory.updateRoom, { id, changes, ifVersion }),
      () => this.rpc.send(messages.inventory.getRoom, { id }),
    );
  }

  @ApiRoute(apiRoutes.deleteRoom)
  async delete(
    @Param() { id }: RouteParams<typeof apiRoutes.deleteRoom>,
    @IfMatchVersion() ifVersion: number | undefined,
  ): Promise<void> {
    await versionedWrite(
      () => this.rpc.send(messages.inventory.deleteRoom, { id, ifVersion }),
      () => this.rpc.send(messages.inventory.getRoom, { id }),
    );
  }

  @ApiRoute(apiRoutes.listEquipment)
  listEquipment(@Param() { roomId }: RouteParams<typeof apiRoutes.listEquipment>): Promise<Equipment[]> {
    return this.rpc.send(messages.inventory.listEquipment, { roomId });
  }

  @ApiRoute(apiRoutes.createEquipment)
  async createEquipment(
    @Param() { roomId }: RouteParams<typeof apiRoutes.createEquipment>,
    @Body() equipment: RouteBody<typeof apiRoutes.createEquipment>,
  ): Promise<Equipment> {
    await this.pictures.check(equipment);
    return this.rpc.send(messages.inventory.createEquipment, { roomId, equipment });
  }
}
