import {
  allowedAddressProblem,
  type Equipment,
  type EquipmentCreateBody,
  type EquipmentOption,
  type EquipmentStatus,
  type EquipmentUpdate,
  ErrorCode,
  isAddressError,
  parseAddressTarget,
  type TargetsPage,
} from '@cm/contracts';
import { AppError, CONFIG } from '@cm/platform';
import { Inject, Injectable } from '@nestjs/common';
import { type Config } from '../../config';
import { found, notFound } from '../../shared/database/not-found';
import { withParent } from '../../shared/database/sql';
import { LiveEventsPublisher } from '../../shared/live/live-events.publisher';
import { EquipmentEventsRelay } from '../outbox/equipment-events.relay';
import { EQUIPMENT_WATCH, type EquipmentWatch } from './equipment-watch';
import { type AddressGuard, EquipmentRepository } from './equipment.repository';

@Injectable()
export class EquipmentService {
  constructor(
    private readonly equipment: EquipmentRepository,
    private readonly relay: EquipmentEventsRelay,
    private readonly live: LiveEventsPublisher,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(EQUIPMENT_WATCH) private readonly watch: EquipmentWatch,
  ) {}

  async listByRoom(roomId: string): Promise<Equipment[]> {
    return found(await this.equipment.listByRoom(roomId), () => notFound.room(roomId));
  }

  async get(id: string): Promise<Equipment> {
    return found(await this.equipment.get(id), () => notFound.equipment(id));
  }

  async listByBuilding(buildingId: string): Promise<EquipmentOption[]> {
    return found(await this.equipment.listByBuilding(buildingId), () => notFound.building(buildingId));
  }

  async create(
    roomId: string,
    { roomId: bodyRoomId, ...equipment }: EquipmentCreateBody,
  ): Promise<Equipment> {
    if (bodyRoomId && bodyRoomId !== roomId) {
      const message = 'roomId in the body must be the room of the path, or left out';
      throw new AppError(ErrorCode.VALIDATION_FAILED, message, [{ path: 'roomId', message }]);
    }
    const guard = this.addressGuard(equipment.ipAddress);
    const created = await withParent(
      () => this.equipment.create(roomId, equipment, guard),
      () => notFound.room(roomId),
    );
    if (created.ipAddress) this.relay.kick();
    void this.announce(created, 'created');
    return created;
  }

  async update(id: string, changes: EquipmentUpdate): Promise<Equipment> {
    const guard = this.addressGuard(changes.ipAddress);
    const updated = await withParent(
      () => this.equipment.update(id, changes, (tx, status) => this.watch.statusSet(tx, id, status), guard),
      () => notFound.room(changes.roomId!),
    );
    if (changes.ipAddress !== undefined) this.relay.kick();
    const { equipment, statusChanged, previousRoomId, afterCommit } = found(updated, () =>
      notFound.equipment(id),
    );
    void this.announce(equipment, 'updated', statusChanged, previousRoomId);
    // A person's status change took it out of its alert in the update's transaction.
    afterCommit();
    if (statusChanged || changes.ipAddress !== undefined || previousRoomId !== equipment.roomId) {
      await this.watch.roomsChanged([previousRoomId, equipment.roomId]);
    }
    return equipment;
  }

  async delete(id: string): Promise<void> {
    const parents = await this.equipment.delete(id);
    if (!parents) throw notFound.equipment(id);
    this.relay.kick();
    this.live.inventoryChanged({ kind: 'equipment', action: 'deleted', id, ...parents });
    await this.watch.roomsChanged([parents.roomId]);
  }

  /**
   * Live events after the commit: the change, and a person's status change as a status event
   * (with the check time and round trip the equipment already had). A move is also a change of
   * the room it left, whose counts changed too.
   */
  private async announce(
    equipment: Equipment,
    action: 'created' | 'updated',
    statusChanged = false,
    previousRoomId = equipment.roomId,
  ): Promise<void> {
    const buildingId = await this.equipment.buildingOf(equipment.roomId).catch(() => null);
    if (!buildingId) return;
    const { id, roomId } = equipment;
    this.live.inventoryChanged({ kind: 'equipment', action, id, roomId, buildingId });
    if (previousRoomId !== roomId) {
      const left = await this.equipment.buildingOf(previousRoomId).catch(() => null);
      if (left)
        this.live.inventoryChanged({ kind: 'room', action: 'updated', id: previousRoomId, buildingId: left });
    }
    if (statusChanged) {
      await this.live.statusChanged([
        {
          equipmentId: id,
          roomId,
          buildingId,
          status: equipment.status as EquipmentStatus,
          // The row's timestamp is a Date until it is serialised; the event carries the ISO text.
          lastCheckedAt: equipment.lastCheckedAt ? new Date(equipment.lastCheckedAt).toISOString() : null,
          rttMs: equipment.lastRttMs ?? null,
        },
      ]);
    }
  }

  /**
   * Refuses an address the monitor may not ping or a range wider than allowed, before anything is
   * written; answers the check of the campus's total that runs in the write's transaction.
   */
  private addressGuard(ipAddress: string | null | undefined): AddressGuard | undefined {
    if (!ipAddress) return undefined;
    const target = parseAddressTarget(ipAddress);
    if (isAddressError(target)) throw invalidAddress(target.error);
    const problem = allowedAddressProblem(target, this.config.MONITOR_ALLOWED_NETWORKS);
    if (problem) throw invalidAddress(problem);
    const adding = target.addresses.length;
    const perRange = this.config.INVENTORY_MAX_ADDRESSES_PER_RANGE;
    if (adding > perRange) {
      throw invalidAddress(
        `${target.text} covers ${adding} addresses; a range may cover at most ${perRange}: split it, or ask an administrator to raise INVENTORY_MAX_ADDRESSES_PER_RANGE`,
      );
    }
    const max = this.config.INVENTORY_MAX_MONITORED_ADDRESSES;
    return ({ own, others }) => {
      // An edit that adds no address is never refused, so a campus over a lowered limit stays editable.
      if (adding <= own || others + adding <= max) return;
      const message = `The campus would have ${count(others + adding)} monitored addresses; at most ${count(max)} may be monitored: remove the addresses of equipment no longer in use, or ask an administrator to raise INVENTORY_MAX_MONITORED_ADDRESSES`;
      throw new AppError(ErrorCode.ADDRESS_LIMIT_REACHED, message, [{ path: 'ipAddress', message }]);
    };
  }

  async targets(after: string | undefined, limit: number): Promise<TargetsPage> {
    const items = await this.equipment.targets(after, limit);
    return { items, nextCursor: items.length === limit ? items[items.length - 1].equipmentId : null };
  }
}

const invalidAddress = (message: string) =>
  new AppError(ErrorCode.VALIDATION_FAILED, message, [{ path: 'ipAddress', message }]);

const count = (n: number) => n.toLocaleString('en-US');
