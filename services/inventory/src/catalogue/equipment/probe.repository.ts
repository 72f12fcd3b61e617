import { type ProbeSettings } from '@cm/contracts';
import { execute, queryRows } from '@cm/platform';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { TableRepository, type Transaction } from '../../shared/database/table.repository';
import { healthColumns, type HealthColumns } from '../../shared/health/health-view';
import { type SealedSecrets, type StoredProbe } from './probe-settings';

/** What equipment answers carry beyond the equipment's own columns: its probe and its health. */
export interface ProbeRow extends HealthColumns {
  id: string;
  settings: ProbeSettings;
  secretNames: string[];
}

/** An equipment the monitor probes beyond ping, with its secrets still sealed. */
export interface SealedTarget {
  equipmentId: string;
  address: string;
  settings: ProbeSettings;
  secrets: SealedSecrets;
}

/**
 * The probe columns of `equipment` (settings, sealed secrets), and the health the status context
 * records for it (`equipment_health`), read for equipment answers as the equipment's check columns
 * are read from its state row.
 */
@Injectable()
export class ProbeRepository extends TableRepository {
  constructor(dataSource: DataSource) {
    super(dataSource);
  }

  /** The equipment's probe as it is, locked for the write that follows; null when it is gone. */
  async lock(tx: Transaction, id: string): Promise<StoredProbe | null> {
    const [row] = await queryRows<StoredProbe>(
      tx,
      `SELECT ip_address AS "ipAddress", model, type, probe AS settings, probe_secrets AS secrets
         FROM ${this.t.equipment} WHERE id = $1 FOR UPDATE`,
      [id],
    );
    return row ?? null;
  }

  /**
   * Writes the probe when it changed (a trigger then records a `probeChanged` outbox event for
   * equipment with an address).
   */
  async write(tx: Transaction, id: string, settings: ProbeSettings, secrets: SealedSecrets): Promise<void> {
    await execute(
      tx,
      `UPDATE ${this.t.equipment} SET probe = $2::jsonb, probe_secrets = $3::jsonb
        WHERE id = $1 AND (probe IS DISTINCT FROM $2::jsonb OR probe_secrets IS DISTINCT FROM $3::jsonb)`,
      [id, JSON.stringify(settings), JSON.stringify(secrets)],
    );
  }

  /** The probe and health of each equipment named, in `tx` when given (to see its own writes). */
  async views(ids: readonly string[], tx?: Transaction): Promise<Map<string, ProbeRow>> {
    if (ids.length === 0) return new Map();
    const rows = await queryRows<ProbeRow>(
      tx ?? this.dataSource.manager,
      `SELECT e.id, e.probe AS settings,
              ARRAY(SELECT jsonb_object_keys(e.probe_secrets)) AS "secretNames",
              ${healthColumns}
         FROM ${this.t.equipment} e
         LEFT JOIN ${this.t.health} h ON h.equipment_id = e.id
        WHERE e.id = ANY($1::uuid[])`,
      [ids],
    );
    return new Map(rows.map((row) => [row.id, row]));
  }

  /** Equipment probed beyond ping (a single address, a probe other than ICMP), by id, after a cursor. */
  targets(after: string | undefined, limit: number): Promise<SealedTarget[]> {
    return queryRows<SealedTarget>(
      this.dataSource,
      `SELECT id AS "equipmentId", ip_address AS address, probe AS settings, probe_secrets AS secrets
         FROM ${this.t.equipment}
        WHERE probe->>'type' <> 'icmp' AND ip_address IS NOT NULL AND strpos(ip_address, '-') = 0
          AND ($1::uuid IS NULL OR id > $1::uuid)
        ORDER BY id
        LIMIT $2`,
      [after ?? null, limit],
    );
  }
}
