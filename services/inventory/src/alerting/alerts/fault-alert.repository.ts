import { execute, queryRows } from '@cm/platform';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { TableRepository, type Transaction } from '../../shared/database/table.repository';
import { type FaultDevice } from './fault-rules';

/** A device whose health changed, where it is, and whether a fault of it was told. */
export interface FaultPlace extends FaultDevice {
  status: string;
  alerted: boolean;
}

/** What fault alerts read of equipment, and their mark on its health row. */
@Injectable()
export class FaultAlertRepository extends TableRepository {
  constructor(dataSource: DataSource) {
    super(dataSource);
  }

  async places(tx: Transaction, ids: readonly string[]): Promise<FaultPlace[]> {
    return queryRows<FaultPlace>(
      tx,
      `SELECT e.id, e.name, e.ip_address AS address, e.status,
              json_build_object('id', r.id, 'name', r.name) AS room,
              json_build_object('id', b.id, 'name', b.name) AS building,
              h.fault_alerted_at IS NOT NULL AS alerted
         FROM ${this.t.equipment} e
         JOIN ${this.t.rooms} r ON r.id = e.room_id
         JOIN ${this.t.buildings} b ON b.id = r.building_id
         LEFT JOIN ${this.t.health} h ON h.equipment_id = e.id
        WHERE e.id = ANY($1::uuid[])`,
      [ids],
    );
  }

  /** Marks the devices whose fault was told (`at`), or clears the mark (null). */
  async mark(tx: Transaction, ids: readonly string[], at: Date | null): Promise<void> {
    if (ids.length === 0) return;
    await execute(
      tx,
      `UPDATE ${this.t.health} SET fault_alerted_at = $2 WHERE equipment_id = ANY($1::uuid[])`,
      [ids, at],
    );
  }
}
