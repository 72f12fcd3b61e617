import { type ReportSummary } from '@cm/contracts';
import { queryRows } from '@cm/platform';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { type Tables, tablesOf } from '../../shared/database/sql';
import { type UptimeRow, uptimeRowsSql } from './uptime';
import { UptimeCsvCopy } from './uptime-copy.repository';
import { uptimeCsvCopySql } from './uptime-csv';

@Injectable()
export class ReportRepository {
  private readonly t: Tables;

  constructor(private readonly dataSource: DataSource) {
    this.t = tablesOf(dataSource);
  }

  async counts(): Promise<Omit<ReportSummary, 'overallUptimePercent'>> {
    const [row] = await queryRows<Omit<ReportSummary, 'overallUptimePercent'>>(
      this.dataSource,
      `SELECT (SELECT count(*)::int FROM ${this.t.buildings}) AS buildings,
              count(*)::int AS "totalEquipment",
              (count(*) FILTER (WHERE status = 'active'))::int AS online,
              (count(*) FILTER (WHERE status = 'inactive'))::int AS offline
         FROM ${this.t.equipment}`,
    );
    return row;
  }

  /**
   * One page of equipment (by id) with the time each spent up and down within [from, to]
   * (`uptimeSecondsSql`, maintenance windows left out), a keyset page of the report's query.
   */
  uptimePage(after: string | undefined, limit: number, from: Date, to: Date): Promise<UptimeRow[]> {
    return queryRows<UptimeRow>(
      this.dataSource,
      `${uptimeRowsSql(this.t, '$3', '$4')}
        WHERE $1::uuid IS NULL OR e.id > $1::uuid
        ORDER BY e.id
        LIMIT $2`,
      [after ?? null, limit, from, to],
    );
  }

  /** The whole report over [from, to] as CSV, in equipment order, in chunks of `chunkBytes` (not started yet). */
  uptimeCsv(from: Date, to: Date, chunkBytes: number): UptimeCsvCopy {
    return new UptimeCsvCopy(this.dataSource, uptimeCsvCopySql(this.t, from, to), chunkBytes);
  }
}
