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
import { LiveEventsPublisher } from '../../shared/live/live-events.publisher';
import { EquipmentEventsRelay } from '../outbox/equipment-events.relay';
import { changesOf, countsOf, planImport } from './import-plan';
import { type AddressRules, type ImportPlan } from './import-records';
import { ImportRepository } from './import.repository';

@Injectable()
export class ImportService {
  private readonly rules: AddressRules;

  constructor(
    private readonly repository: ImportRepository,
    private readonly relay: EquipmentEventsRelay,
    private readonly live: LiveEventsPublisher,
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
    const { plan, current } = await this.repository.inTransaction(async (manager) => {
      const inventory = await this.repository.current(manager);
      const planned = planImport(rows, inventory, this.rules);
      if (planned.errors.length === 0) await this.repository.apply(manager, planned);
      return { plan: planned, current: inventory };
    });
    if (plan.errors.length) return this.answer(run, plan, false);
    if (plan.equipment.create.length || plan.equipment.update.length) this.relay.kick();
    this.announce(plan);
    return { ...this.answer(run, plan, true), ...changesOf(plan, current) };
  }

  /**
   * Open screens hear of each building the import created or changed (its rooms and equipment
   * included): one event per building rather than one per device, which a campus's worth of
   * screens would each have to take in.
   */
  private announce(plan: ImportPlan): void {
    const created = new Set(plan.buildings.create.map((b) => b.id));
    for (const id of created) this.live.inventoryChanged({ kind: 'building', action: 'created', id });
    const touched = new Set([
      ...plan.buildings.update.map((b) => b.id),
      ...[...plan.rooms.create, ...plan.rooms.update].map((r) => r.buildingId),
    ]);
    const roomBuilding = new Map(
      [...plan.rooms.create, ...plan.rooms.update].map((r) => [r.id, r.buildingId]),
    );
    for (const e of [...plan.equipment.create, ...plan.equipment.update]) {
      const buildingId = roomBuilding.get(e.roomId);
      if (buildingId) touched.add(buildingId);
    }
    for (const id of touched) {
      if (!created.has(id)) this.live.inventoryChanged({ kind: 'building', action: 'updated', id });
    }
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
