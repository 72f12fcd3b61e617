import { type ProbeSettings } from '@cm/contracts';
import { queryRows } from '@cm/platform';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isoOf } from '../../shared/database/sql';
import { TableRepository } from '../../shared/database/table.repository';

/** A device's lamps and filter as its probe last read them, with where it is. */
export interface ConsumablesRow {
  equipmentId: string;
  equipmentName: string;
  model: string | null;
  roomName: string;
  buildingName: string;
  settings: ProbeSettings;
  lamps: { hours: number; on: boolean }[] | null;
  filterHours: number | null;
  lampRates: (number | null)[] | null;
  filterRate: number | null;
  replacementLamp: string | null;
  replacementFilter: string | null;
  checkedAt: string;
}

/** A device as the fleet view reads it: its model and firmware, and when it last restarted. */
export interface FleetRow {
  equipmentId: string;
  name: string;
  roomId: string;
  roomName: string;
  buildingName: string;
  model: string | null;
  firmware: string | null;
  rebootedAt: string | null;
  /** It restarted within the window asked about. */
  rebooted: boolean;
}

const place = (t: { equipment: string; rooms: string; buildings: string }) => `
  JOIN ${t.equipment} e ON e.id = h.equipment_id
  JOIN ${t.rooms} r ON r.id = e.room_id
  JOIN ${t.buildings} b ON b.id = r.building_id`;

/** What the consumables report and the fleet view read of equipment health. */
@Injectable()
export class HealthReportsRepository extends TableRepository {
  constructor(dataSource: DataSource) {
    super(dataSource);
  }

  /** Equipment with lamp or filter hours, by id, after a cursor. */
  consumables(after: string | undefined, limit: number): Promise<ConsumablesRow[]> {
    return queryRows<ConsumablesRow>(
      this.dataSource,
      `SELECT h.equipment_id AS "equipmentId", e.name AS "equipmentName",
              coalesce(nullif(e.model, ''), h.model) AS model, r.name AS "roomName", b.name AS "buildingName",
              e.probe AS settings, h.lamps, h.filter_hours AS "filterHours", h.lamp_rates AS "lampRates",
              h.filter_rate AS "filterRate", h.replacement_lamp AS "replacementLamp",
              h.replacement_filter AS "replacementFilter", ${isoOf('h.checked_at')} AS "checkedAt"
         FROM ${this.t.health} h ${place(this.t)}
        WHERE (jsonb_array_length(coalesce(h.lamps, '[]')) > 0 OR h.filter_hours IS NOT NULL)
          AND ($1::uuid IS NULL OR h.equipment_id > $1::uuid)
        ORDER BY h.equipment_id
        LIMIT $2`,
      [after ?? null, limit],
    );
  }

  /** Devices with a firmware read, or restarted since `rebootedSince`. */
  fleet(rebootedSince: Date): Promise<FleetRow[]> {
    return queryRows<FleetRow>(
      this.dataSource,
      `SELECT h.equipment_id AS "equipmentId", e.name, r.id AS "roomId", r.name AS "roomName",
              b.name AS "buildingName", coalesce(h.model, nullif(e.model, '')) AS model, h.firmware,
              ${isoOf('h.rebooted_at')} AS "rebootedAt", coalesce(h.rebooted_at >= $1, false) AS rebooted
         FROM ${this.t.health} h ${place(this.t)}
        WHERE h.firmware IS NOT NULL OR h.rebooted_at >= $1
        ORDER BY lower(b.name), lower(r.name), lower(e.name), h.equipment_id`,
      [rebootedSince],
    );
  }
}
