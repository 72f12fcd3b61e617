import { type ProbeSettings } from '@cm/contracts';
import { execute, queryChanged, queryRows } from '@cm/platform';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { TableRepository, type Transaction } from '../../shared/database/table.repository';
import { type HealthRecord, type HoursSample } from './health-rules';

/** An equipment of a health batch, locked, with what its readings are judged against. */
export interface LockedDevice {
  id: string;
  roomId: string;
  buildingId: string;
  /** The inventory's own fields, which a probe's reading fills where empty. */
  model: string | null;
  serialNumber: string | null;
  settings: ProbeSettings;
  previous: HealthRecord | null;
}

const ms = (column: string) => `(extract(epoch FROM ${column}) * 1000)::float8`;

/** The record's columns, named as `HealthRecord`'s fields (the table aliased `h`). */
const recordColumns = `h.equipment_id AS "equipmentId", h.state, h.reasons, h.outcome, h.probe_type AS "probeType",
  h.auth_failed AS "authFailed", h.power, h.lamps, h.filter_hours AS "filterHours", h.input, h.model, h.serial,
  h.firmware, h.replacement_lamp AS "replacementLamp", h.replacement_filter AS "replacementFilter",
  h.uptime_seconds AS "uptimeSeconds", ${ms('h.uptime_read_at')} AS "uptimeReadAt",
  ${ms('h.rebooted_at')} AS "rebootedAt", ${ms('h.checked_at')} AS "checkedAt",
  ${ms('h.state_since')} AS "stateSince", to_char(h.lamp_sampled_on, 'YYYY-MM-DD') AS "lampSampledOn",
  h.lamp_rates AS "lampRates", h.filter_rate AS "filterRate"`;

const recordFields = `"equipmentId" uuid, state text, reasons jsonb, outcome text, "probeType" text, "authFailed" boolean,
  power text, lamps jsonb, "filterHours" int, input text, model text, serial text, firmware text,
  "replacementLamp" text, "replacementFilter" text, "uptimeSeconds" float8, "uptimeReadAt" float8,
  "rebootedAt" float8, "checkedAt" float8, "stateSince" float8, "lampSampledOn" date, "lampRates" jsonb,
  "filterRate" real`;

const time = (field: string) => `to_timestamp(x."${field}" / 1000.0)`;

/**
 * Equipment health as probes read it: the current record per device, the spans of its states,
 * the daily lamp and filter hours, and the firmware it moved to. A batch's statements each cover
 * all of its devices.
 */
@Injectable()
export class HealthRepository extends TableRepository {
  constructor(dataSource: DataSource) {
    super(dataSource);
  }

  /**
   * Locks the batch's equipment in id order (so batches sharing devices wait rather than deadlock,
   * and a delete waits for the commit) and reads their records. Equipment since deleted is absent.
   */
  async lock(tx: Transaction, ids: readonly string[]): Promise<LockedDevice[]> {
    const rows = await queryRows<Omit<LockedDevice, 'previous'> & { previous: HealthRecord | null }>(
      tx,
      `SELECT e.id, e.room_id AS "roomId", rm.building_id AS "buildingId", e.model,
              e.serial_number AS "serialNumber", e.probe AS settings,
              CASE WHEN h.equipment_id IS NULL THEN NULL ELSE row_to_json(r) END AS previous
         FROM ${this.t.equipment} e
         JOIN ${this.t.rooms} rm ON rm.id = e.room_id
         LEFT JOIN ${this.t.health} h ON h.equipment_id = e.id
         LEFT JOIN LATERAL (SELECT ${recordColumns}) r ON true
        WHERE e.id = ANY($1::uuid[])
        ORDER BY e.id
          FOR NO KEY UPDATE OF e`,
      [ids],
    );
    return rows;
  }

  /** Writes each device's record: one statement for the batch. */
  async write(tx: Transaction, records: readonly HealthRecord[]): Promise<void> {
    if (records.length === 0) return;
    await execute(
      tx,
      `INSERT INTO ${this.t.health} AS h (equipment_id, state, reasons, outcome, probe_type, auth_failed, power,
              lamps, filter_hours, input, model, serial, firmware, replacement_lamp, replacement_filter,
              uptime_seconds, uptime_read_at, rebooted_at, checked_at, state_since, lamp_sampled_on, lamp_rates,
              filter_rate)
       SELECT x."equipmentId", x.state, x.reasons, x.outcome, x."probeType", x."authFailed", x.power, x.lamps,
              x."filterHours", x.input, x.model, x.serial, x.firmware, x."replacementLamp", x."replacementFilter",
              x."uptimeSeconds", ${time('uptimeReadAt')}, ${time('rebootedAt')}, ${time('checkedAt')},
              ${time('stateSince')}, x."lampSampledOn", x."lampRates", x."filterRate"
         FROM jsonb_to_recordset($1::jsonb) AS x(${recordFields})
       ON CONFLICT (equipment_id) DO UPDATE SET
              state = excluded.state, reasons = excluded.reasons, outcome = excluded.outcome,
              probe_type = excluded.probe_type, auth_failed = excluded.auth_failed, power = excluded.power,
              lamps = excluded.lamps, filter_hours = excluded.filter_hours, input = excluded.input,
              model = excluded.model, serial = excluded.serial, firmware = excluded.firmware,
              replacement_lamp = excluded.replacement_lamp, replacement_filter = excluded.replacement_filter,
              uptime_seconds = excluded.uptime_seconds, uptime_read_at = excluded.uptime_read_at,
              rebooted_at = excluded.rebooted_at, checked_at = excluded.checked_at,
              state_since = excluded.state_since, lamp_sampled_on = excluded.lamp_sampled_on,
              lamp_rates = excluded.lamp_rates, filter_rate = excluded.filter_rate`,
      [JSON.stringify(records)],
    );
  }

  /** Ends each device's open span where its first new one starts, and writes the new ones. */
  async openSpans(
    tx: Transaction,
    spans: readonly {
      equipmentId: string;
      startedAt: number;
      endedAt: number | null;
      state: string;
      reasons: string[];
    }[],
  ): Promise<void> {
    if (spans.length === 0) return;
    const json = JSON.stringify(spans);
    await execute(
      tx,
      `UPDATE ${this.t.healthSpans} s SET ended_at = ${time('first')}
         FROM (SELECT "equipmentId", min("startedAt") AS first
                 FROM jsonb_to_recordset($1::jsonb) AS y("equipmentId" uuid, "startedAt" float8)
                GROUP BY 1) x
        WHERE s.equipment_id = x."equipmentId" AND s.ended_at IS NULL`,
      [json],
    );
    await execute(
      tx,
      `INSERT INTO ${this.t.healthSpans} (equipment_id, started_at, ended_at, state, reasons)
       SELECT x."equipmentId", ${time('startedAt')}, ${time('endedAt')}, x.state, x.reasons
         FROM jsonb_to_recordset($1::jsonb)
           AS x("equipmentId" uuid, "startedAt" float8, "endedAt" float8, state text, reasons jsonb)
       ON CONFLICT (equipment_id, started_at) DO NOTHING`,
      [json],
    );
  }

  async recordFirmware(
    tx: Transaction,
    changes: readonly { equipmentId: string; from: string | null; to: string; at: number }[],
  ): Promise<void> {
    if (changes.length === 0) return;
    await execute(
      tx,
      `INSERT INTO ${this.t.firmwareHistory} (equipment_id, from_version, to_version, changed_at)
       SELECT x."equipmentId", x."from", x."to", ${time('at')}
         FROM jsonb_to_recordset($1::jsonb) AS x("equipmentId" uuid, "from" text, "to" text, at float8)`,
      [JSON.stringify(changes)],
    );
  }

  /** Keeps each device's first lamp and filter hours of a day; answers their samples since `sinceDay`. */
  async sample(
    tx: Transaction,
    samples: readonly (HoursSample & { equipmentId: string; day: string })[],
    sinceDay: string,
  ): Promise<Map<string, HoursSample[]>> {
    const recent = new Map<string, HoursSample[]>();
    if (samples.length === 0) return recent;
    await execute(
      tx,
      `INSERT INTO ${this.t.healthDays} (equipment_id, day, sampled_at, lamp_hours, filter_hours)
       SELECT x."equipmentId", x.day, ${time('sampledAt')},
              ARRAY(SELECT jsonb_array_elements_text(x."lampHours")::int), x."filterHours"
         FROM jsonb_to_recordset($1::jsonb)
           AS x("equipmentId" uuid, day date, "sampledAt" float8, "lampHours" jsonb, "filterHours" int)
       ON CONFLICT (equipment_id, day) DO NOTHING`,
      [JSON.stringify(samples)],
    );
    const rows = await queryRows<HoursSample & { equipmentId: string }>(
      tx,
      `SELECT equipment_id AS "equipmentId", ${ms('sampled_at')} AS "sampledAt", lamp_hours AS "lampHours",
              filter_hours AS "filterHours"
         FROM ${this.t.healthDays}
        WHERE equipment_id = ANY($1::uuid[]) AND day >= $2::date`,
      [samples.map((s) => s.equipmentId), sinceDay],
    );
    for (const { equipmentId, ...sample } of rows) {
      const list = recent.get(equipmentId) ?? [];
      list.push(sample);
      recent.set(equipmentId, list);
    }
    return recent;
  }

  /** Fills the inventory's empty model and serial number fields with what the probes read. */
  async fillIdentity(
    tx: Transaction,
    fills: readonly { id: string; model: string | null; serial: string | null }[],
  ): Promise<void> {
    if (fills.length === 0) return;
    await execute(
      tx,
      `UPDATE ${this.t.equipment} e
          SET model = coalesce(nullif(e.model, ''), x.model),
              serial_number = coalesce(nullif(e.serial_number, ''), x.serial)
         FROM jsonb_to_recordset($1::jsonb) AS x(id uuid, model text, serial text)
        WHERE e.id = x.id`,
      [JSON.stringify(fills)],
    );
  }

  /** Deletes health spans that ended and firmware changes before `before`, and day samples before `daysBefore`. */
  async prune(before: Date, daysBefore: string): Promise<number> {
    let removed = 0;
    for (const [table, condition, value] of [
      [this.t.healthSpans, 'ended_at < $1', before],
      [this.t.firmwareHistory, 'changed_at < $1', before],
      [this.t.healthDays, 'day < $1::date', daysBefore],
    ] as const) {
      const { count } = await queryChanged(this.dataSource, `DELETE FROM ${table} WHERE ${condition}`, [
        value,
      ]);
      removed += count;
    }
    return removed;
  }

  /** Health spans overlapping [from, to), and firmware changes within it, oldest first (epoch ms). */
  async timeline(id: string, from: number, to: number) {
    const range = [id, new Date(from), new Date(to)];
    const spans = await queryRows<{
      start: number;
      end: number | null;
      state: HealthRecord['state'];
      reasons: string[];
    }>(
      this.dataSource,
      `SELECT ${ms('started_at')} AS start, ${ms('ended_at')} AS "end", state, reasons
           FROM ${this.t.healthSpans}
          WHERE equipment_id = $1 AND started_at < $3 AND (ended_at IS NULL OR ended_at > $2)
          ORDER BY started_at`,
      range,
    );
    const firmware = await queryRows<{ at: number; from: string | null; to: string }>(
      this.dataSource,
      `SELECT ${ms('changed_at')} AS at, from_version AS "from", to_version AS "to"
         FROM ${this.t.firmwareHistory}
        WHERE equipment_id = $1 AND changed_at >= $2 AND changed_at < $3
        ORDER BY changed_at, id`,
      range,
    );
    return { spans, firmware };
  }
}
