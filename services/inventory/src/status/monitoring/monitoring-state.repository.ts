import { type DurableMonitoringState, type MonitoringStateSave } from '@cm/contracts';
import { queryRows } from '@cm/platform';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { TableRepository } from '../../shared/database/table.repository';

const columns = `is_running AS "isRunning", interval_ms AS "interval",
                 to_char(changed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "changedAt"`;

/** Monitoring's running state (`monitoring_state`, one row or none). */
@Injectable()
export class MonitoringStateRepository extends TableRepository {
  constructor(dataSource: DataSource) {
    super(dataSource);
  }

  async get(): Promise<DurableMonitoringState | null> {
    const rows = await queryRows<DurableMonitoringState>(
      this.dataSource,
      `SELECT ${columns} FROM ${this.t.monitoringState}`,
    );
    return rows[0] ?? null;
  }

  async save({ isRunning, interval }: MonitoringStateSave): Promise<DurableMonitoringState> {
    const rows = await queryRows<DurableMonitoringState>(
      this.dataSource,
      `INSERT INTO ${this.t.monitoringState} (is_running, interval_ms) VALUES ($1, $2)
       ON CONFLICT (id) DO UPDATE
          SET is_running = excluded.is_running, interval_ms = excluded.interval_ms, changed_at = now()
       RETURNING ${columns}`,
      [isRunning, interval],
    );
    return rows[0];
  }
}
