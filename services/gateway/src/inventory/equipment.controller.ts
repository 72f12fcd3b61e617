import {
  apiRoutes,
  type Equipment,
  type EquipmentHistory,
  type EquipmentOption,
  messages,
  type RouteBody,
  type RouteParams,
  type RouteQuery,
} from '@cm/contracts';
import { RpcClient } from '@cm/platform';
import { Body, Controller, Param, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ApiRoute } from '../http/api-route.decorator';
import { IfMatchVersion, versionedWrite, withVersionTag } from '../http/versions';
import { RegisteredPictures } from './registered-pictures.service';

@Controller()
export class EquipmentController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly pictures: RegisteredPictures,
  ) {}

  @ApiRoute(apiRoutes.listBuildingEquipment)
  listByBuilding(
    @Param() { buildingId }: RouteParams<typeof apiRoutes.listBuildingEquipment>,
  ): Promise<EquipmentOption[]> {
    return this.rpc.send(messages.inventory.listBuildingEquipment, { buildingId });
  }

  @ApiRoute(apiRoutes.updateEquipment)
  async update(
    @Param() { id }: RouteParams<typeof apiRoutes.updateEquipment>,
    @Body() changes: RouteBody<typeof apiRoutes.updateEquipment>,
    @IfMatchVersion() ifVersion: number | undefined,
  ): Promise<Equipment> {
    await this.pictures.check(changes);
    return versionedWrite(
      () => this.rpc.send(messages.inventory.updateEquipment, { id, changes, ifVersion }),
      () => this.rpc.send(messages.inventory.getEquipment, { id }),
    );
  }

  @ApiRoute(apiRoutes.getEquipment)
  async get(
    @Param() { id }: RouteParams<typeof apiRoutes.getEquipment>,
    @Res({ passthrough: true }) res: Response,
  ): Promise<Equipment> {
    return withVersionTag(res, await this.rpc.send(messages.inventory.getEquipment, { id }));
  }

  @ApiRoute(apiRoutes.equipmentHistory)
  history(
    @Param() { id }: RouteParams<typeof apiRoutes.equipmentHistory>,
    @Query() range: RouteQuery<typeof apiRoutes.equipmentHistory>,
  ): Promise<EquipmentHistory> {
    return this.rpc.send(messages.inventory.equipmentHistory, { id, ...range });
  }

  @ApiRoute(apiRoutes.deleteEquipment)
  async delete(
    @Param() { id }: RouteParams<typeof apiRoutes.deleteEquipment>,
    @IfMatchVersion() ifVersion: number | undefined,
  ): Promise<void> {
    await versionedWrite(
      () => this.rpc.send(messages.inventory.deleteEquipment, { id, ifVersion }),
      () => this.rpc.send(messages.inventory.getEquipment, { id }),
    );
  }
}
