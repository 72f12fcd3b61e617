import {
  type Equipment,
  type EquipmentCreateBody,
  type EquipmentUpdate,
  ErrorCode,
  type TargetsPage,
} from '@cm/contracts';
import { AppError } from '@cm/platform';
import { Injectable } from '@nestjs/common';
import { found, notFound } from '../database/not-found';
import { withParent } from '../database/sql';
import { EquipmentEventsRelay } from '../outbox/equipment-events.relay';
import { EquipmentRepository } from './equipment.repository';

@Injectable()
export class EquipmentService {
  constructor(
    private readonly equipment: EquipmentRepository,
    private readonly relay: EquipmentEventsRelay,
  ) {}

  async listByRoom(roomId: string): Promise<Equipment[]> {
    return found(await this.equipment.listByRoom(roomId), () => notFound.room(roomId));
  }

  async create(
    roomId: string,
    { roomId: bodyRoomId, ...equipment }: EquipmentCreateBody,
  ): Promise<Equipment> {
    if (bodyRoomId && bodyRoomId !== roomId) {
      const message = 'roomId in the body must be the room of the path, or left out';
      throw new AppError(ErrorCode.VALIDATION_FAILED, message, [{ path: 'roomId', message }]);
    }
    const created = await withParent(
      () => this.equipment.create(roomId, equipment),
      () => notFound.room(roomId),
    );
    if (created.ipAddress) this.relay.kick();
    return created;
  }

  async update(id: string, changes: EquipmentUpdate): Promise<Equipment> {
    const updated = await withParent(
      () => this.equipment.update(id, changes),
      () => notFound.room(changes.roomId!),
    );
    if (changes.ipAddress !== undefined) this.relay.kick();
    return found(updated, () => notFound.equipment(id));
  }

  async delete(id: string): Promise<void> {
    if (!(await this.equipment.delete(id))) throw notFound.equipment(id);
    this.relay.kick();
  }

  async targets(after: string | undefined, limit: number): Promise<TargetsPage> {
    const items = await this.equipment.targets(after, limit);
    return { items, nextCursor: items.length === limit ? items[items.length - 1].equipmentId : null };
  }
}
