import {
  allowedAddressProblem,
  type ExportPage,
  IMPORT_ERRORS_SHOWN,
  type ImportRow,
  type ImportRun,
  type ImportRunAnswer,
  isAddressError,
  parseAddressTarget,
} from '@cm/contracts';
import { CONFIG } from '@cm/platform';
import { Inject, Injectable } from '@nestjs/common';
import { type Config } from '../../config';
import { InventoryEventBus } from '../../shared/events/inventory-event-bus';
import { type InventoryEvents } from '../../shared/events/inventory-events';
import { changesOf, countsOf, planImport } from './import-plan';
import { type AddressRules, type ImportPlan } from './import-records';
import { ImportRepository } from './import.repository';

/**
 * What an applied plan changed, by building: open screens hear of each building the import created
 * or changed (its rooms and equipment included), one event per building rather than one per device,
 * which a campus's worth of screens would each have to take in.
 */
function appliedOf(plan: ImportPlan): InventoryEvents['import.applied'] {
  const created = new Set(plan.buildings.create.map((b) => b.id));
  const rooms = [...plan.rooms.create, ...plan.rooms.update];
  const equipment = [...plan.equipment.create, ...plan.equipment.update];
  const touched = new Set([...plan.buildings.update.map((b) => b.id), ...rooms.map((r) => r.buildingId)]);
  const roomBuilding = new Map(rooms.map((r) => [r.id, r.buildingId]));
  for (const e of equipment) {
    const buildingId = roomBuilding.get(e.roomId);
    if (buildingId) touched.add(buildingId);
  }
  return {
    createdBuildingIds: [...created],
    changedBuildingIds: [...touched].filter((id) => !created.has(id)),
    equipmentWritten: equipment.length > 0,
  };
}

@Injectable()
export class ImportService {
  private readonly rules: AddressRules;

  constructor(
    private readonly repository: ImportRepository,
    private readonly events: InventoryEventBus,
    @Inject(CONFIG) config: Config,
  ) {
    const perRange = config.INVENTORY_MAX_ADDRESSES_PER_RANGE;
    const addresses = (ip: string) => {
      const target = parseAddressTarget(ip);
      return isAddressError(target) ? null : target;
    };
    this.rules = {
      problem: (ip) => {
        const target = addresses(ip);
        if (!target) return `"${ip}" is not an address the monitor can ping.`;
        const problem = allowedAddressProblem(target, config.MONITOR_ALLOWED_NETWORKS);
        if (problem) return problem;
        return target.addresses.length > perRange
          ? `${target.text} covers ${target.addresses.length} addresses; a range may cover at most ${perRange}. Split it, or ask an administrator to raise INVENTORY_MAX_ADDRESSES_PER_RANGE.`
          : null;
      },
      count: (ip) => addresses(ip)?.addresses.length ?? 1,
      max: config.INVENTORY_MAX_MONITORED_ADDRESSES,
    };
  }

  exportPage(after: string[] | undefined, limit: number): Promise<ExportPage> {
    return this.repository.exportPage(after, limit);
  }

  async stage(importId: string, seq: number, rows: ImportRow[]): Promise<{ staged: number }> {
    await this.repository.stage(importId, seq, rows);
    return { staged: rows.length };
  }

  /**
   * Plans the staged lines; applies the plan when asked and nothing is wrong, in one transaction
   * that reads the inventory again, so that what is applied is planned on what is there. With an
   * error (the gateway's or the plan's), nothing is written.
   */
  async run(run: ImportRun): Promise<ImportRunAnswer> {
    const rows = await this.repository.takeStaged(run.importId);
    if (run.dryRun || run.errorCount > 0) {
      const plan = planImport(rows, await this.repository.current(), this.rules);
      return this.answer(run, plan, false);
    }
    const { plan, current } = await this.events.transaction(this.repository, async (tx, events) => {
      const inventory = await this.repository.current(tx);
      const planned = planImport(rows, inventory, this.rules);
      if (planned.errors.length === 0) {
        await this.repository.apply(tx, planned);
        await events.emit('import.applied', appliedOf(planned));
      }
      return { plan: planned, current: inventory };
    });
    if (plan.errors.length) return this.answer(run, plan, false);
    return { ...this.answer(run, plan, true), ...changesOf(plan, current) };
  }

  private answer(run: ImportRun, plan: ImportPlan, applied: boolean): ImportRunAnswer {
    const errors = [...run.errors, ...plan.errors].sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
    return {
      dryRun: run.dryRun,
      applied,
      rows: run.rows,
      buildings: countsOf(plan.buildings),
      rooms: countsOf(plan.rooms),
      equipment: countsOf(plan.equipment),
      errors: errors.slice(0, IMPORT_ERRORS_SHOWN),
      errorCount: run.errorCount + plan.errors.length,
      changes: [],
      changesNotListed: 0,
    };
  }
}
