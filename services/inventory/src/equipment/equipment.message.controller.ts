import {
  type EquipmentCreateMessage,
  equipmentCreateMessageSchema,
  type EquipmentUpdateMessage,
  equipmentUpdateMessageSchema,
  idParamsSchema,
  patterns,
  roomIdParamsSchema,
  targetsPageRequestSchema,
} from '@cm/contracts';
import { ZodPipe } from '@cm/platform';
import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { type z } from 'zod';
import { EquipmentService } from './equipment.service';

@Controller()
export class EquipmentMessageController {
  constructor(private readonly equipment: EquipmentService) {}

  @MessagePattern(patterns.inventory.listEquipment)
  list(@Payload(new ZodPipe(roomIdParamsSchema)) { roomId }: { roomId: string }) {
    return this.equipment.listByRoom(roomId);
  }

  @MessagePattern(patterns.inventory.createEquipment)
  create(@Payload(new ZodPipe(equipmentCreateMessageSchema)) { roomId, equipment }: EquipmentCreateMessage) {
    return this.equipment.create(roomId, equipment);
  }

  @MessagePattern(patterns.inventory.updateEquipment)
  update(@Payload(new ZodPipe(equipmentUpdateMessageSchema)) { id, changes }: EquipmentUpdateMessage) {
    return this.equipment.update(id, changes);
  }

  @MessagePattern(patterns.inventory.deleteEquipment)
  async delete(@Payload(new ZodPipe(idParamsSchema)) { id }: { id: string }) {
    await this.equipment.delete(id);
    return { deleted: true };
  }

  /** For the monitor: equipment with an address, a page at a time. */
  @MessagePattern(patterns.inventory.listTargets)
  targets(
    @Payload(new ZodPipe(targetsPageRequestSchema))
    { after, limit }: z.output<typeof targetsPageRequestSchema>,
  ) {
    return this.equipment.targets(after, limit);
  }
}
