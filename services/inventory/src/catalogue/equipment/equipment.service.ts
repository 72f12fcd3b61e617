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
import { InventoryEventBus } from '../../shared/events/inventory-event-bus';
import { type AddressGuard, EquipmentRepository } from './equipment.repository';
import { ProbeService } from './probe.service';

/**
 * Equipment edits. What follows one (the outbox relay kicked, live events, alerts settled) reacts
 * to the events it emits in its transaction (`equipment.created`, `equipment.updated`,
 * `equipment.status-set`, `equipment.deleted`: see `InventoryEvents`).
 */
@Injectable()
export class EquipmentService {
  constructor(
    private readonly equipment: EquipmentRepository,
    private readonly events: InventoryEventBus,
    @Inject(CONFIG) private readonly config: Config,
    private readonly probes: ProbeService,
  ) {}

  // One snapshot for the equipment and its health: a health reading fills an empty model and
  // serial number in the transaction that records it, and an answer shows both or neither.
  listByRoom(roomId: string): Promise<Equipment[]> {
    return this.equipment.snapshot(async (tx) =>
      this.probes.withProbes(
        found(await this.equipment.listByRoom(roomId, tx), () => notFound.room(roomId)),
        tx,
      ),
    );
  }

  get(id: string): Promise<Equipment> {
    return this.equipment.snapshot(async (tx) => {
      const [equipment] = await this.probes.withProbes(
        [found(await this.equipment.get(id, tx), () => notFound.equipment(id))],
        tx,
      );
      return equipment;
    });
  }

  async listByBuilding(buildingId: string): Promise<EquipmentOption[]> {
    return found(await this.equipment.listByBuilding(buildingId), () => notFound.building(buildingId));
  }

  async create(
    roomId: string,
    { roomId: bodyRoomId, probe, ...equipment }: EquipmentCreateBody,
  ): Promise<Equipment> {
    if (bodyRoomId && bodyRoomId !== roomId) {
      const message = 'roomId in the body must be the room of the path, or left out';
      throw new AppError(ErrorCode.VALIDATION_FAILED, message, [{ path: 'roomId', message }]);
    }
    const guard = this.addressGuard(equipment.ipAddress);
    return withParent(
      () =>
        this.events.transaction(this.equipment, async (tx, events) => {
          const created = await this.probes.created(
            tx,
            await this.equipment.create(tx, roomId, equipment, guard),
            probe,
          );
          await events.emit('equipment.created', { equipment: created });
          return created;
        }),
      () => notFound.room(roomId),
    );
  }

  async update(id: string, changes: EquipmentUpdate, ifVersion?: number): Promise<Equipment> {
    const guard = this.addressGuard(changes.ipAddress);
    const updated = await withParent(
      () =>
        this.events.transaction(this.equipment, async (tx, events) => {
          const setStatus = (status: EquipmentStatus) =>
            events.emit('equipment.status-set', { equipmentId: id, status });
          const result = await this.equipment.update(tx, id, changes, setStatus, { guard, ifVersion });
          const addressChanged = changes.ipAddress !== undefined;
          if (result) {
            result.equipment = await this.probes.updated(tx, result.equipment, changes.probe, addressChanged);
            const probeChanged = changes.probe !== undefined;
            await events.emit('equipment.updated', { ...result, addressChanged, probeChanged });
          }
          return result;
        }),
      () => notFound.room(changes.roomId!),
    );
    return found(updated, () => notFound.equipment(id)).equipment;
  }

  /** With `ifVersion`, a stale-version error when it is no longer the record's version. */
  async delete(id: string, ifVersion?: number): Promise<void> {
    const parents = await this.events.transaction(this.equipment, async (tx, events) => {
      const deleted = await this.equipment.delete(tx, id, ifVersion);
      if (deleted) await events.emit('equipment.deleted', { id, ...deleted });
      return deleted;
    });
    if (!parents) throw notFound.equipment(id);
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
