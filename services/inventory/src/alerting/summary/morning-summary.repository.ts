import { type ReadinessSummarySettings } from '@cm/contracts';
import { execute, queryRows } from '@cm/platform';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isoOf } from '../../shared/database/sql';
import { TableRepository, type Transaction } from '../../shared/database/table.repository';
import { type SummaryRoom } from './morning-summary';

/**
 * The morning summary's settings (one row), the days it went out, and what it reads: the
 * schedules' classes and the rooms' devices, in SQL (alerting imports no other context).
 */
@Injectable()
export class MorningSummaryRepository extends TableRepository {
  constructor(dataSource: DataSource) {
    super(dataSource);
  }

  /** Null until an administrator sets it. Channels deleted since are left out. */
  async settings(): Promise<ReadinessSummarySettings | null> {
    const [row] = await queryRows<ReadinessSummarySettings>(
      this.dataSource,
      `SELECT s.send_at AS time, s.time_zone AS "timeZone",
              coalesce((SELECT array_agg(c.id ORDER BY c.name, c.id) FROM ${this.t.channels} c
                         WHERE c.id = ANY(s.channel_ids)), '{}') AS "channelIds"
         FROM ${this.t.readinessSummary} s`,
    );
    return row ?? null;
  }

  async set(settings: ReadinessSummarySettings): Promise<void> {
    await execute(
      this.dataSource,
      `INSERT INTO ${this.t.readinessSummary} (id, send_at, time_zone, channel_ids) VALUES (1, $1, $2, $3)
       ON CONFLICT (id) DO UPDATE SET send_at = excluded.send_at, time_zone = excluded.time_zone,
              channel_ids = excluded.channel_ids, updated_at = now()`,
      [settings.time, settings.timeZone, settings.channelIds],
    );
  }

  /** The ids among `ids` no channel has. */
  async missingChannels(ids: string[]): Promise<string[]> {
    const rows = await queryRows<{ id: string }>(
      this.dataSource,
      `SELECT id FROM unnest($1::uuid[]) AS u(id)
        WHERE NOT EXISTS (SELECT 1 FROM ${this.t.channels} c WHERE c.id = u.id)`,
      [ids],
    );
    return rows.map((r) => r.id);
  }

  /** Claims a day's summary; true for the one replica whose insert made the row. */
  async claim(tx: Transaction, day: string, at: Date): Promise<boolean> {
    const rows = await queryRows(
      tx,
      `INSERT INTO ${this.t.readinessSummariesSent} (day, sent_at) VALUES ($1, $2)
       ON CONFLICT DO NOTHING RETURNING day`,
      [day, at],
    );
    return rows.length > 0;
  }

  /** The chosen channels still enabled, with the buildings each covers (null: the campus). */
  channels(tx: Transaction, ids: string[]): Promise<{ id: string; buildingIds: string[] | null }[]> {
    return queryRows(
      tx,
      `SELECT id, building_ids AS "buildingIds" FROM ${this.t.channels}
        WHERE enabled AND id = ANY($1::uuid[]) ORDER BY id`,
      [ids],
    );
  }

  /**
   * The rooms with a class starting in [from, to), soonest first class first, each with its
   * devices offline or partly answering now (the monitor's latest status).
   */
  rooms(tx: Transaction, from: Date, to: Date): Promise<SummaryRoom[]> {
    return queryRows<SummaryRoom>(
      tx,
      `SELECT json_build_object('id', r.id, 'name', r.name) AS room,
              json_build_object('id', b.id, 'name', b.name) AS building,
              ${isoOf('f.starts_at')} AS "firstStart", f.title AS "firstTitle",
              coalesce((SELECT json_agg(json_build_object('name', e.name, 'address', e.ip_address,
                                                          'status', e.status) ORDER BY lower(e.name), e.id)
                          FROM ${this.t.equipment} e
                         WHERE e.room_id = r.id AND e.status IN ('inactive', 'partial')), '[]') AS down
         FROM ${this.t.rooms} r
         JOIN ${this.t.buildings} b ON b.id = r.building_id
         JOIN LATERAL (SELECT o.starts_at, o.title FROM ${this.t.occurrences} o
                        WHERE o.room_id = r.id AND o.starts_at >= $1 AND o.starts_at < $2
                        ORDER BY o.starts_at, o.id LIMIT 1) f ON true
        ORDER BY f.starts_at, b.name, r.name, r.id`,
      [from, to],
    );
  }
}
