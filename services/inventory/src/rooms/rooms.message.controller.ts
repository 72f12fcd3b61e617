import {
  buildingIdParamsSchema,
  idParamsSchema,
  patterns,
  type RoomCreateMessage,
  roomCreateMessageSchema,
  type RoomUpdateMessage,
  roomUpdateMessageSchema,
} from '@cm/contracts';
import { ZodPipe } from '@cm/platform';
import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { RoomsService } from './rooms.service';

@Controller()
export class RoomsMessageController {
  constructor(private readonly rooms: RoomsService) {}

  @MessagePattern(patterns.inventory.listRooms)
  list(@Payload(new ZodPipe(buildingIdParamsSchema)) { buildingId }: { buildingId: string }) {
    return this.rooms.listByBuilding(buildingId);
  }

  @MessagePattern(patterns.inventory.getRoom)
  get(@Payload(new ZodPipe(idParamsSchema)) { id }: { id: string }) {
    return this.rooms.get(id);
  }

  @MessagePattern(patterns.inventory.createRoom)
  create(@Payload(new ZodPipe(roomCreateMessageSchema)) { buildingId, room }: RoomCreateMessage) {
    return this.rooms.create(buildingId, room);
  }

  @MessagePattern(patterns.inventory.updateRoom)
  update(@Payload(new ZodPipe(roomUpdateMessageSchema)) { id, changes }: RoomUpdateMessage) {
    return this.rooms.update(id, changes);
  }

  @MessagePattern(patterns.inventory.deleteRoom)
  async delete(@Payload(new ZodPipe(idParamsSchema)) { id }: { id: string }) {
    await this.rooms.delete(id);
    return { deleted: true };
  }
}
