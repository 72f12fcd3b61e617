import { type Consumable, type ConsumablesPage, type Fleet, type FleetDevice } from '@cm/contracts';
import { Injectable } from '@nestjs/common';
import { ratedLivesOf, replaceByDate } from '../../shared/health/health-view';
import { type ConsumablesRow, type FleetRow, HealthReportsRepository } from './health-reports.repository';
import { compareVersions } from './versions';

/** The fleet view lists at most this many devices behind the newest firmware per model… */
export const FLEET_BEHIND_PER_MODEL = 100;
/** …and this many restarted devices: one NATS reply stays well under its 1 MB. */
export const FLEET_REBOOTED_MAX = 500;
const DAY_MS = 86_400_000;

/** The consumables report and the fleet view, from what the probes read. */
@Injectable()
export class HealthReportsService {
  constructor(private readonly reports: HealthReportsRepository) {}

  async consumables(after: string | undefined, limit: number): Promise<ConsumablesPage> {
    const rows = await this.reports.consumables(after, limit);
    return {
      items: rows.flatMap(consumablesOf),
      nextCursor: rows.length === limit ? rows[rows.length - 1].equipmentId : null,
    };
  }

  async fleet(now = Date.now()): Promise<Fleet> {
    const rows = await this.reports.fleet(new Date(now - DAY_MS));
    const byModel = new Map<string, FleetRow[]>();
    for (const row of rows) {
      if (!row.firmware || !row.model) continue;
      const list = byModel.get(row.model) ?? [];
      list.push(row);
      byModel.set(row.model, list);
    }
    const models = [...byModel.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([model, devices]) => {
        const counts = new Map<string, number>();
        for (const d of devices) counts.set(d.firmware!, (counts.get(d.firmware!) ?? 0) + 1);
        const versions = [...counts.entries()]
          .sort(([a], [b]) => compareVersions(b, a))
          .map(([firmware, count]) => ({ firmware, devices: count }));
        const newest = versions[0].firmware;
        const behind = devices.filter((d) => compareVersions(d.firmware!, newest) < 0);
        return {
          model,
          newestFirmware: newest,
          versions,
          behind: behind.slice(0, FLEET_BEHIND_PER_MODEL).map(deviceOf),
        };
      });
    const rebooted = rows
      .filter((r) => r.rebooted)
      .sort((a, b) => b.rebootedAt!.localeCompare(a.rebootedAt!))
      .slice(0, FLEET_REBOOTED_MAX)
      .map((r) => ({ ...deviceOf(r), rebootedAt: r.rebootedAt! }));
    return { models, rebooted };
  }
}

const deviceOf = (r: FleetRow): FleetDevice => ({
  equipmentId: r.equipmentId,
  name: r.name,
  roomId: r.roomId,
  roomName: r.roomName,
  buildingName: r.buildingName,
  model: r.model,
  firmware: r.firmware,
});

/** A device's lamps, then its filter, as lines of the report. */
function consumablesOf(row: ConsumablesRow): Consumable[] {
  const rated = ratedLivesOf(row.settings);
  const line = (
    part: string,
    hours: number,
    ratedHours: number | undefined,
    rate: number | null,
    replacement: string | null,
  ): Consumable => ({
    equipmentId: row.equipmentId,
    buildingName: row.buildingName,
    roomName: row.roomName,
    equipmentName: row.equipmentName,
    model: row.model,
    part,
    hours,
    ratedHours: ratedHours ?? null,
    replacementModel: replacement,
    hoursPerDay: rate,
    replaceBy: ratedHours ? replaceByDate(hours, rate, ratedHours, row.checkedAt) : null,
    checkedAt: row.checkedAt,
  });
  const lamps = (row.lamps ?? []).map((lamp, i) =>
    line(`Lamp ${i + 1}`, lamp.hours, rated.lamp, row.lampRates?.[i] ?? null, row.replacementLamp),
  );
  const filter =
    row.filterHours === null
      ? []
      : [line('Filter', row.filterHours, rated.filter, row.filterRate, row.replacementFilter)];
  return [...lamps, ...filter];
}
