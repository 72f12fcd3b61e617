import {
  apiRoutes,
  type Equipment,
  type EquipmentCreateBody,
  messages,
  type Room,
  type RoomUpdate,
} from '@cm/contracts';
import { RpcClient } from '@cm/platform';
import { Body, Controller, Param } from '@nestjs/common';
import { ApiRoute } from '../http/api-route.decorator';
import { RegisteredPictures } from './registered-pictures.service';

@Controller()
export class RoomsController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly pictures: RegisteredPictures,
  ) {}

  @ApiRoute(apiRoutes.getRoom)
  get(@Param('roomId') id: string): Promise<Room> {
    return this.rpc.send(messages.inventory.getRoom, { id });
  }

  @ApiRoute(apiRoutes.updateRoom)
  async update(@Param('id') id: string, @Body() changes: RoomUpdate): Promise<Room> {
    await this.pictures.check(changes);
    return this.rpc.send(messages.inventory.updateRoom, { id, changes });
  }

  @ApiRoute(apiRoutes.deleteRoom)
  async delete(@Param('id') id: string): Promise<void> {
    await this.rpc.send(messages.inventory.deleteRoom, { id });
  }

  @ApiRoute(apiRoutes.listEquipment)
  listEquipment(@Param('roomId') roomId: string): Promise<Equipment[]> {
    return this.rpc.send(messages.inventory.listEquipment, { roomId });
  }

  @ApiRoute(apiRoutes.createEquipment)
  async createEquipment(
    @Param('roomId') roomId: string,
    @Body() equipment: EquipmentCreateBody,
  ): Promise<Equipment> {
    await this.pictures.check(equipment);
    return this.rpc.send(messages.inventory.createEquipment, { roomId, equipment });
  }
}
