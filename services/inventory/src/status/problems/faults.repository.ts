import { type FaultDevice, type Faults } from '@cm/contracts';
import { queryRows } from '@cm/platform';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isoOf } from '../../shared/database/sql';
import { inMaintenanceJoin } from '../../shared/database/in-maintenance';
import { TableRepository } from '../../shared/database/table.repository';
import { byPlace, type PlaceRow } from './by-place';

type FaultRow = PlaceRow & FaultDevice;

/**
 * Devices whose probe beyond ping reports a fault now, apart from those offline (listed as
 * problems already) or in maintenance, set or under a window now (nobody expects them to work), and from those pinged only
 * (their health is old, from a probe no longer chosen).
 */
@Injectable()
export class FaultsRepository extends TableRepository {
  constructor(dataSource: DataSource) {
    super(dataSource);
  }

  /** One query, longest first, read by the health table's index of faults. */
  async list(): Promise<Faults> {
    const rows = await queryRows<FaultRow>(
      this.dataSource,
      `SELECT e.id, e.name, e.ip_address AS "ipAddress", h.state, h.reasons, ${isoOf('h.state_since')} AS since,
              r.id AS "roomId", r.name AS "roomName", r.floor, b.id AS "buildingId", b.name AS "buildingName"
         FROM ${this.t.health} h
         JOIN ${this.t.equipment} e ON e.id = h.equipment_id
         JOIN ${this.t.rooms} r ON r.id = e.room_id
         JOIN ${this.t.buildings} b ON b.id = r.building_id
         ${inMaintenanceJoin(this.t, 'e')}
        WHERE h.state IN ('warning', 'error') AND e.probe->>'type' <> 'icmp'
          AND e.status NOT IN ('inactive', 'maintenance') AND mw.id IS NULL
        ORDER BY h.state_since, e.id`,
    );
    const { buildings } = byPlace(rows, ({ id, name, ipAddress, state, reasons, since }) => ({
      id,
      name,
      ipAddress,
      state,
      reasons,
      since,
    }));
    return { deviceCount: rows.length, buildings };
  }
}
