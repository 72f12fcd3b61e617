import {
  ErrorCode,
  type MaintenanceWindow,
  type MaintenanceWindowCreate,
  type MaintenanceWindowQuery,
  maintenanceTimesProblem,
  type MaintenanceWindowUpdate,
} from '@cm/contracts';
import { AppError } from '@cm/platform';
import { Injectable } from '@nestjs/common';
import { found, notFound } from '../../shared/database/not-found';
import { isPgError, pgCodes, withParent } from '../../shared/database/sql';
import { InventoryEventBus } from '../../shared/events/inventory-event-bus';
import {
  MaintenanceWindowRepository,
  type Place,
  type WindowFields,
  type WindowTarget,
} from './maintenance-window.repository';

const targetOf = (fields: Partial<WindowTarget>): WindowTarget => ({
  buildingId: fields.buildingId ?? null,
  roomId: fields.roomId ?? null,
  equipmentId: fields.equipmentId ?? null,
});

const hasTarget = (fields: Partial<WindowTarget>) =>
  Boolean(fields.buildingId ?? fields.roomId ?? fields.equipmentId);

/** The not-found error of the kind the target names. */
const targetMissing = ({ buildingId, roomId, equipmentId }: WindowTarget) =>
  equipmentId
    ? notFound.equipment(equipmentId)
    : roomId
      ? notFound.room(roomId)
      : notFound.building(buildingId!);

const invalidTimes = (problem: { path: string; message: string }) =>
  new AppError(ErrorCode.VALIDATION_FAILED, problem.message, [problem]);

/**
 * Maintenance windows: planned, listed, edited and deleted for the screens, and asked by the
 * alerting to come ("is this equipment in a window now?").
 */
@Injectable()
export class MaintenanceWindowsService {
  constructor(
    private readonly windows: MaintenanceWindowRepository,
    private readonly events: InventoryEventBus,
  ) {}

  async list(query: MaintenanceWindowQuery): Promise<MaintenanceWindow[]> {
    let place: Place | undefined;
    if (hasTarget(query)) {
      const target = targetOf(query);
      place = found(await this.windows.placeOf(target), () => targetMissing(target));
    }
    return this.windows.list({
      place,
      active: query.active === undefined ? undefined : { at: new Date(), inForce: query.active === 'true' },
      from: query.from === undefined ? undefined : new Date(query.from),
      to: query.to === undefined ? undefined : new Date(query.to),
    });
  }

  async get(id: string): Promise<MaintenanceWindow> {
    return found(await this.windows.get(id), () => notFound.maintenanceWindow(id));
  }

  async create({ startsAt, endsAt, reason, ...target }: MaintenanceWindowCreate): Promise<MaintenanceWindow> {
    const fields = { ...targetOf(target), startsAt, endsAt, reason };
    return withParent(
      () =>
        this.events.transaction(this.windows, async (tx, events) => {
          const created = await this.windows.create(fields, tx);
          await events.emit('maintenance-window.created', { id: created.id, target: targetOf(created) });
          return created;
        }),
      () => targetMissing(fields),
    );
  }

  async update(id: string, changes: MaintenanceWindowUpdate): Promise<MaintenanceWindow> {
    const stored = await this.get(id);
    const startsAt = changes.startsAt ?? stored.startsAt;
    const endsAt = changes.endsAt ?? stored.endsAt;
    const problem = maintenanceTimesProblem(startsAt, endsAt);
    if (problem) throw invalidTimes(problem);

    const { buildingId, roomId, equipmentId, ...times } = changes;
    const fields: Partial<WindowFields> = hasTarget({ buildingId, roomId, equipmentId })
      ? { ...targetOf({ buildingId, roomId, equipmentId }), ...times }
      : times;
    let updated: MaintenanceWindow | null;
    try {
      updated = await withParent(
        () =>
          this.events.transaction(this.windows, async (tx, events) => {
            const window = await this.windows.update(id, fields, tx);
            if (window) {
              const [target, previousTarget] = [targetOf(window), targetOf(stored)];
              await events.emit('maintenance-window.updated', { id, target, previousTarget });
            }
            return window;
          }),
        () => targetMissing(targetOf(fields)),
      );
    } catch (error) {
      // Another edit changed the other end meanwhile: what the two leave together is refused.
      if (isPgError(error, pgCodes.checkViolation)) {
        throw invalidTimes({
          path: 'endsAt',
          message:
            'The window was changed meanwhile and these times no longer fit it: reload it and try again',
        });
      }
      throw error;
    }
    return found(updated, () => notFound.maintenanceWindow(id));
  }

  async delete(id: string): Promise<void> {
    const target = await this.events.transaction(this.windows, async (tx, events) => {
      const deleted = await this.windows.delete(id, tx);
      if (deleted) await events.emit('maintenance-window.deleted', { id, target: deleted });
      return deleted;
    });
    if (!target) throw notFound.maintenanceWindow(id);
  }

  /**
   * The windows in force at `at` over each of the equipment (its own, its room's, its building's),
   * by equipment id; equipment in none is absent. One query for any number of ids.
   */
  async coveringEquipment(
    equipmentIds: readonly string[],
    at: Date = new Date(),
  ): Promise<Map<string, MaintenanceWindow[]>> {
    const covering = new Map<string, MaintenanceWindow[]>();
    for (const { coveredId, ...window } of await this.windows.covering(equipmentIds, at)) {
      const list = covering.get(coveredId);
      if (list) list.push(window);
      else covering.set(coveredId, [window]);
    }
    return covering;
  }

  /** Whether the equipment is inside a maintenance window (its own, its room's, its building's) at `at`. */
  async isInWindow(equipmentId: string, at: Date = new Date()): Promise<boolean> {
    return (await this.coveringEquipment([equipmentId], at)).has(equipmentId);
  }
}
