import {
  type DeleteMessage,
  deleted,
  messages,
  type RoomCreateMessage,
  type RoomUpdateMessage,
} from '@cm/contracts';
import { HandleMessage } from '@cm/platform';
import { Controller } from '@nestjs/common';
import { RoomsService } from './rooms.service';

@Controller()
export class RoomsMessageController {
  constructor(private readonly rooms: RoomsService) {}

  @HandleMessage(messages.inventory.listRooms)
  list({ buildingId }: { buildingId: string }) {
    return this.rooms.listByBuilding(buildingId);
  }

  @HandleMessage(messages.inventory.getRoom)
  get({ id }: { id: string }) {
    return this.rooms.get(id);
  }

  @HandleMessage(messages.inventory.createRoom)
  create({ buildingId, room }: RoomCreateMessage) {
    return this.rooms.create(buildingId, room);
  }

  @HandleMessage(messages.inventory.updateRoom)
  update({ id, changes, ifVersion }: RoomUpdateMessage) {
    return this.rooms.update(id, changes, ifVersion);
  }

  @HandleMessage(messages.inventory.deleteRoom)
  async delete({ id, ifVersion }: DeleteMessage) {
    await this.rooms.delete(id, ifVersion);
    return deleted;
  }
}
