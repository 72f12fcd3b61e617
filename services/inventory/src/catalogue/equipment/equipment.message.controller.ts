import {
  type DeleteMessage,
  deleted,
  type EquipmentCreateMessage,
  type EquipmentUpdateMessage,
  type MessagePayload,
  messages,
} from '@cm/contracts';
import { HandleMessage } from '@cm/platform';
import { Controller } from '@nestjs/common';
import { EquipmentService } from './equipment.service';

@Controller()
export class EquipmentMessageController {
  constructor(private readonly equipment: EquipmentService) {}

  @HandleMessage(messages.inventory.listEquipment)
  list({ roomId }: { roomId: string }) {
    return this.equipment.listByRoom(roomId);
  }

  @HandleMessage(messages.inventory.getEquipment)
  get({ id }: { id: string }) {
    return this.equipment.get(id);
  }

  @HandleMessage(messages.inventory.listBuildingEquipment)
  listByBuilding({ buildingId }: { buildingId: string }) {
    return this.equipment.listByBuilding(buildingId);
  }

  @HandleMessage(messages.inventory.createEquipment)
  create({ roomId, equipment }: EquipmentCreateMessage) {
    return this.equipment.create(roomId, equipment);
  }

  @HandleMessage(messages.inventory.updateEquipment)
  update({ id, changes, ifVersion }: EquipmentUpdateMessage) {
    return this.equipment.update(id, changes, ifVersion);
  }

  @HandleMessage(messages.inventory.deleteEquipment)
  async delete({ id, ifVersion }: DeleteMessage) {
    await this.equipment.delete(id, ifVersion);
    return deleted;
  }

  @HandleMessage(messages.inventory.listTargets)
  targets({ after, limit }: MessagePayload<typeof messages.inventory.listTargets>) {
    return this.equipment.targets(after, limit);
  }
}
