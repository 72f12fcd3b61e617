import { locationKey, type ScheduleLocation, type ScheduleOccurrence } from '@cm/contracts';
import { execute, queryChanged, queryRows } from '@cm/platform';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { type Occurrence } from '../calendar/ics';
import { isoOf } from '../../shared/database/sql';
import { TableRepository, type Transaction } from '../../shared/database/table.repository';

/** A LOCATION text as rooms are named: spaces collapsed, lower case (`locationKey` in SQL). */
const keyOf = (column: string) => `lower(regexp_replace(btrim(${column}), '\\s+', ' ', 'g'))`;

/**
 * The classes of the schedules, expanded, with the room each is in; and the LOCATION texts
 * mapped to rooms. A building source's class goes to the room its LOCATION is mapped to, else to
 * the room of the building named as the text ("102" or "Hall A 102"), else to none (listed as
 * unmatched for an administrator to map).
 */
@Injectable()
export class OccurrenceRepository extends TableRepository {
  constructor(dataSource: DataSource) {
    super(dataSource);
  }

  /** Replaces a source's classes with `occurrences`, and places them in rooms. */
  async replace(sourceId: string, occurrences: Occurrence[], tx: Transaction): Promise<void> {
    await queryChanged(tx, `DELETE FROM ${this.t.occurrences} WHERE source_id = $1`, [sourceId]);
    if (occurrences.length > 0)
      await execute(
        tx,
        `INSERT INTO ${this.t.occurrences} (source_id, uid, title, location, location_key, starts_at, ends_at)
         SELECT $1, o.uid, o.title, o.location, o.key, o.starts_at, o.ends_at
           FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[], $7::timestamptz[])
             AS o (uid, title, location, key, starts_at, ends_at)`,
        [
          sourceId,
          occurrences.map((o) => o.uid.slice(0, 500)),
          occurrences.map((o) => o.title.slice(0, 500)),
          occurrences.map((o) => o.location?.slice(0, 500) ?? null),
          occurrences.map((o) => (o.location ? locationKey(o.location).slice(0, 500) : null)),
          occurrences.map((o) => new Date(o.start)),
          occurrences.map((o) => new Date(o.end)),
        ],
      );
    await this.placeSource(sourceId, tx);
  }

  /** Places a source's classes again: its room or building changed. */
  placeSource(sourceId: string, tx: Transaction): Promise<void> {
    return this.place(tx, 'o.source_id = $1', [sourceId]);
  }

  /**
   * Takes the rooms a source's classes may go to (its room, or its building's) before the source's
   * own row: the order a building's or room's delete takes them in (the rooms, then by cascade the
   * sources and their classes), so that a read and a delete wait for each other rather than
   * deadlock.
   */
  async lockPlaces(sourceId: string, tx: Transaction): Promise<void> {
    await queryRows(
      tx,
      `SELECT 1 FROM ${this.t.rooms} r JOIN ${this.t.scheduleSources} s ON s.id = $1
        WHERE r.id = s.room_id OR r.building_id = s.building_id
        ORDER BY r.id FOR KEY SHARE OF r`,
      [sourceId],
    );
  }

  /** Places the classes of a building's schedules again: one of its rooms was added or renamed. */
  placeBuilding(buildingId: string): Promise<void> {
    return this.transaction((tx) => this.place(tx, 's.building_id = $1', [buildingId]));
  }

  async roomExists(roomId: string): Promise<boolean> {
    const rows = await queryRows(this.dataSource, `SELECT 1 FROM ${this.t.rooms} WHERE id = $1`, [roomId]);
    return rows.length > 0;
  }

  /** Sets the room of the classes `where` selects: the source's room, or by LOCATION for a building's. */
  private async place(tx: Transaction, where: string, params: unknown[]): Promise<void> {
    await queryChanged(
      tx,
      `UPDATE ${this.t.occurrences} AS o
          SET room_id = coalesce(s.room_id,
                (SELECT l.room_id FROM ${this.t.scheduleLocations} l WHERE l.location_key = o.location_key),
                (SELECT r.id FROM ${this.t.rooms} r JOIN ${this.t.buildings} b ON b.id = r.building_id
                  WHERE r.building_id = s.building_id
                    AND (${keyOf('r.name')} = o.location_key OR ${keyOf(`b.name || ' ' || r.name`)} = o.location_key)
                  ORDER BY r.id LIMIT 1))
         FROM ${this.t.scheduleSources} s
        WHERE s.id = o.source_id AND ${where}`,
      params,
    );
  }

  /** A room's classes that overlap [from, to), soonest first. */
  forRoom(roomId: string, from: Date, to: Date): Promise<ScheduleOccurrence[]> {
    return queryRows<ScheduleOccurrence>(
      this.dataSource,
      `SELECT o.source_id AS "sourceId", o.room_id AS "roomId", o.title, o.location,
              ${isoOf('o.starts_at')} AS start, ${isoOf('o.ends_at')} AS end
         FROM ${this.t.occurrences} o
        WHERE o.room_id = $1 AND o.starts_at < $3 AND o.ends_at > $2
        ORDER BY o.starts_at, o.ends_at, o.id`,
      [roomId, from, to],
    );
  }

  /**
   * The classes of a building's rooms that overlap [from, to), the first `perRoom` of each room,
   * in one statement: the rooms list asks for all its cards at once.
   */
  forBuilding(buildingId: string, from: Date, to: Date, perRoom: number): Promise<ScheduleOccurrence[]> {
    return queryRows<ScheduleOccurrence>(
      this.dataSource,
      `SELECT c."sourceId", c."roomId", c.title, c.location, c.start, c.end
         FROM ${this.t.rooms} r
         JOIN LATERAL (SELECT o.source_id AS "sourceId", o.room_id AS "roomId", o.title, o.location,
                              ${isoOf('o.starts_at')} AS start, ${isoOf('o.ends_at')} AS end, o.starts_at, o.ends_at, o.id
                         FROM ${this.t.occurrences} o
                        WHERE o.room_id = r.id AND o.starts_at < $3 AND o.ends_at > $2
                        ORDER BY o.starts_at, o.ends_at, o.id
                        LIMIT $4) c ON true
        WHERE r.building_id = $1
        ORDER BY r.id, c.starts_at, c.ends_at, c.id`,
      [buildingId, from, to, perRoom],
    );
  }

  async buildingExists(buildingId: string): Promise<boolean> {
    const rows = await queryRows(this.dataSource, `SELECT 1 FROM ${this.t.buildings} WHERE id = $1`, [
      buildingId,
    ]);
    return rows.length > 0;
  }

  /** Maps (or, with roomId null, unmaps) a LOCATION text, and places its classes again. */
  async map(location: string, roomId: string | null, tx: Transaction): Promise<void> {
    const key = locationKey(location);
    if (roomId)
      await execute(
        tx,
        `INSERT INTO ${this.t.scheduleLocations} (location_key, location, room_id) VALUES ($1, $2, $3)
         ON CONFLICT (location_key) DO UPDATE SET location = $2, room_id = $3, updated_at = now()`,
        [key, location.trim(), roomId],
      );
    else await queryChanged(tx, `DELETE FROM ${this.t.scheduleLocations} WHERE location_key = $1`, [key]);
    await this.place(tx, 'o.location_key = $1', [key]);
  }

  /** The LOCATION texts of building sources' classes from `now` on (or one), with their rooms. */
  locations(now: Date, only: { unmatched?: boolean; location?: string } = {}): Promise<ScheduleLocation[]> {
    const params: unknown[] = [now];
    let filter = '';
    if (only.location !== undefined) {
      params.push(locationKey(only.location));
      filter = ` AND o.location_key = $${params.length}`;
    }
    return queryRows<ScheduleLocation>(
      this.dataSource,
      `SELECT min(o.location) AS location, (array_agg(o.room_id))[1] AS "roomId",
              CASE WHEN (array_agg(o.room_id))[1] IS NULL THEN NULL
                   WHEN bool_or(l.room_id IS NOT NULL) THEN 'mapping' ELSE 'name' END AS "matchedBy",
              array_agg(DISTINCT o.source_id) AS "sourceIds", count(*)::int AS occurrences
         FROM ${this.t.occurrences} o
         JOIN ${this.t.scheduleSources} s ON s.id = o.source_id AND s.building_id IS NOT NULL
         LEFT JOIN ${this.t.scheduleLocations} l ON l.location_key = o.location_key
        WHERE o.ends_at > $1 AND o.location_key IS NOT NULL${filter}
        GROUP BY o.location_key
       HAVING ${only.unmatched ? 'bool_and(o.room_id IS NULL)' : 'true'}
        ORDER BY min(o.location)`,
      params,
    );
  }
}
