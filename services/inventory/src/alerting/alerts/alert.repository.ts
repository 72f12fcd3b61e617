import {
  type AlertDevice,
  type DeliveryContent,
  type OpenAlert,
  type OpenAlertQuery,
  type QuietHours,
} from '@cm/contracts';
import { CONFIG, execute, queryChanged, queryRows } from '@cm/platform';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { type Config } from '../../config';
import { isoOf } from '../../shared/database/sql';
import { TableRepository, type Transaction } from '../../shared/database/table.repository';
import { type AlertRoom, type DeviceAlertState } from './alert-rules';

/** A room's open alert as stored: the devices of its last message. */
export interface StoredAlert {
  id: string;
  roomId: string;
  openedAt: string;
  devices: AlertDevice[];
}

/** The alert state columns of `equipment_state` (alias `st`), as `stateOf` reads them. */
export interface AlertStateRow {
  alert_failed_checks: number;
  alert_id: string | null;
  alert_since: string | null;
  alert_changes: string[];
  alert_flapping_at: string | null;
}

/** An alert's message that has not gone out yet: pending, never tried. */
const waiting = `alert_id = $1 AND state = 'pending' AND attempts = 0`;

const storedColumns = `id, room_id AS "roomId", ${isoOf('opened_at')} AS "openedAt", devices`;

/**
 * The alert engine's tables (`alerts`, the alert columns of `equipment_state`) and what it reads
 * and rewrites of the delivery outbox. Every write runs in the transaction handed in: the status
 * batch's, or one of `transaction`.
 */
@Injectable()
export class AlertRepository extends TableRepository {
  constructor(
    dataSource: DataSource,
    @Inject(CONFIG) private readonly config: Config,
  ) {
    super(dataSource);
  }

  static readonly stateColumns = `st.alert_failed_checks, st.alert_id, ${isoOf('st.alert_since')} AS alert_since,
    st.alert_changes, ${isoOf('st.alert_flapping_at')} AS alert_flapping_at`;

  static stateOf(row: AlertStateRow): DeviceAlertState {
    return {
      failedChecks: row.alert_failed_checks,
      alertId: row.alert_id,
      since: row.alert_since === null ? null : Date.parse(row.alert_since),
      changes: row.alert_changes.map(Number),
      flappingAt: row.alert_flapping_at === null ? null : Date.parse(row.alert_flapping_at),
    };
  }

  /**
   * The open alerts, newest first, of one room or building when given; null when the room or
   * building given does not exist.
   */
  async listOpen(query: OpenAlertQuery): Promise<OpenAlert[] | null> {
    const [place] = await queryRows<{ room: boolean; building: boolean }>(
      this.dataSource,
      `SELECT $1::uuid IS NULL OR EXISTS (SELECT 1 FROM ${this.t.rooms} WHERE id = $1) AS room,
              $2::uuid IS NULL OR EXISTS (SELECT 1 FROM ${this.t.buildings} WHERE id = $2) AS building`,
      [query.roomId ?? null, query.buildingId ?? null],
    );
    if (!place.room || !place.building) return null;
    const alerts = await queryRows<OpenAlert>(
      this.dataSource,
      `SELECT a.id, json_build_object('id', r.id, 'name', r.name) AS room,
              json_build_object('id', b.id, 'name', b.name) AS building,
              ${isoOf('a.opened_at')} AS "openedAt", NULL AS "closedAt",
              (SELECT count(*)::int FROM ${this.t.equipment} m WHERE m.room_id = r.id AND m.ip_address IS NOT NULL)
                AS monitored,
              coalesce((SELECT json_agg(d ORDER BY lower(d.name), d.id) FROM (${this.membersSql('a.id')}) d), '[]')
                AS devices
         FROM ${this.t.alerts} a
         JOIN ${this.t.rooms} r ON r.id = a.room_id
         JOIN ${this.t.buildings} b ON b.id = r.building_id
        WHERE a.closed_at IS NULL AND ($1::uuid IS NULL OR r.id = $1) AND ($2::uuid IS NULL OR b.id = $2)
        ORDER BY a.opened_at DESC, a.id`,
      [query.roomId ?? null, query.buildingId ?? null],
    );
    const all = await this.withBehind(
      this.dataSource.manager,
      alerts.flatMap((a) => a.devices),
    );
    const byId = new Map(all.map((d) => [d.id, d]));
    return alerts.map((a) => ({ ...a, devices: a.devices.map((d) => byId.get(d.id)!) }));
  }

  async writeStates(tx: Transaction, states: readonly { id: string; state: DeviceAlertState }[]) {
    const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());
    await execute(
      tx,
      `UPDATE ${this.t.state} st
          SET alert_failed_checks = x.failed, alert_id = x.alert_id, alert_since = x.since,
              alert_changes = x.changes, alert_flapping_at = x.flapping_at
         FROM jsonb_to_recordset($1::jsonb) AS x (
                equipment_id uuid, failed integer, alert_id uuid, since timestamptz, changes bigint[],
                flapping_at timestamptz)
        WHERE st.equipment_id = x.equipment_id`,
      [
        JSON.stringify(
          states.map(({ id, state }) => ({
            equipment_id: id,
            failed: state.failedChecks,
            alert_id: state.alertId,
            since: iso(state.since),
            changes: state.changes,
            flapping_at: iso(state.flappingAt),
          })),
        ),
      ],
    );
  }

  /** Of the equipment given, those whose upstream device is failing now: by id, the upstream's room. */
  async failingUpstreams(tx: Transaction, ids: string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await queryRows<{ id: string; roomId: string }>(
      tx,
      `SELECT e.id, u.room_id AS "roomId"
         FROM ${this.t.equipment} e
         JOIN ${this.t.equipment} u ON u.id = e.upstream_equipment_id
         JOIN ${this.t.state} ust ON ust.equipment_id = u.id
        WHERE e.id = ANY($1::uuid[]) AND ust.alert_failed_checks > 0`,
      [ids],
    );
    return new Map(rows.map((r) => [r.id, r.roomId]));
  }

  /** Locks the rooms (in id order, so two batches over the same rooms wait, never deadlock). */
  lockRooms(tx: Transaction, roomIds: readonly string[]): Promise<AlertRoom[]> {
    return queryRows<AlertRoom>(
      tx,
      `SELECT r.id, r.name, b.id AS "buildingId", b.name AS "buildingName"
         FROM ${this.t.rooms} r JOIN ${this.t.buildings} b ON b.id = r.building_id
        WHERE r.id = ANY($1::uuid[])
        ORDER BY r.id
          FOR NO KEY UPDATE OF r`,
      [[...new Set(roomIds)]],
    );
  }

  openAlerts(tx: Transaction, roomIds: readonly string[]): Promise<StoredAlert[]> {
    return queryRows<StoredAlert>(
      tx,
      `SELECT ${storedColumns} FROM ${this.t.alerts} WHERE room_id = ANY($1::uuid[]) AND closed_at IS NULL`,
      [roomIds],
    );
  }

  async open(tx: Transaction, roomId: string): Promise<StoredAlert> {
    const [alert] = await queryRows<StoredAlert>(
      tx,
      `INSERT INTO ${this.t.alerts} (room_id) VALUES ($1) RETURNING ${storedColumns}`,
      [roomId],
    );
    return alert;
  }

  async join(tx: Transaction, alertId: string, equipmentIds: string[]): Promise<void> {
    await execute(tx, `UPDATE ${this.t.state} SET alert_id = $1 WHERE equipment_id = ANY($2::uuid[])`, [
      alertId,
      equipmentIds,
    ]);
  }

  /** Lets go of members that are no longer the room's monitored equipment, or that a person took over. */
  async releaseLeavers(tx: Transaction, alertId: string, roomId: string): Promise<void> {
    await execute(
      tx,
      `UPDATE ${this.t.state} st SET alert_id = NULL, alert_failed_checks = 0, alert_since = NULL
         FROM ${this.t.equipment} e
        WHERE st.alert_id = $1 AND e.id = st.equipment_id
          AND (e.room_id <> $2 OR e.ip_address IS NULL OR e.status = 'maintenance')`,
      [alertId, roomId],
    );
  }

  async members(tx: Transaction, alertId: string): Promise<AlertDevice[]> {
    const devices = await queryRows<AlertDevice>(
      tx,
      `${this.membersSql('$1')} ORDER BY lower(e.name), e.id`,
      [alertId],
    );
    return this.withBehind(tx, devices);
  }

  async discard(tx: Transaction, alertId: string): Promise<void> {
    await execute(tx, `DELETE FROM ${this.t.alerts} WHERE id = $1`, [alertId]);
  }

  /** Closes the alert: when, and whether its devices all answer again (rather than being gone or set aside). */
  async close(tx: Transaction, alertId: string): Promise<{ closedAt: string; allAnswering: boolean }> {
    // An UPDATE answers its rows and its count.
    const {
      rows: [closed],
    } = await queryChanged<{ closedAt: string; allAnswering: boolean }>(
      tx,
      `UPDATE ${this.t.alerts} a SET closed_at = now(), updated_at = now()
        WHERE id = $1
       RETURNING ${isoOf('closed_at')} AS "closedAt",
                 NOT EXISTS (SELECT 1 FROM jsonb_array_elements(a.devices) d
                              LEFT JOIN ${this.t.equipment} e ON e.id = (d->>'id')::uuid
                             WHERE e.id IS NULL OR e.status <> 'active') AS "allAnswering"`,
      [alertId],
    );
    return closed;
  }

  async setDevices(tx: Transaction, alertId: string, devices: AlertDevice[]): Promise<void> {
    await execute(tx, `UPDATE ${this.t.alerts} SET devices = $2, updated_at = now() WHERE id = $1`, [
      alertId,
      JSON.stringify(devices),
    ]);
  }

  async device(tx: Transaction, id: string): Promise<AlertDevice | undefined> {
    const [device] = await queryRows<AlertDevice>(
      tx,
      `SELECT e.id, e.name, e.ip_address AS address, e.status, NULL AS since
         FROM ${this.t.equipment} e WHERE e.id = $1`,
      [id],
    );
    return device;
  }

  async openAlertOf(tx: Transaction, roomId: string): Promise<{ id: string; openedAt: string } | null> {
    const [open] = await queryRows<{ id: string; openedAt: string }>(
      tx,
      `SELECT id, ${isoOf('opened_at')} AS "openedAt" FROM ${this.t.alerts} WHERE room_id = $1 AND closed_at IS NULL`,
      [roomId],
    );
    return open ?? null;
  }

  /** The room's equipment with an address. */
  async monitored(tx: Transaction, roomId: string): Promise<number> {
    const [row] = await queryRows<{ n: number }>(
      tx,
      `SELECT count(*)::int AS n FROM ${this.t.equipment} WHERE room_id = $1 AND ip_address IS NOT NULL`,
      [roomId],
    );
    return row.n;
  }

  /**
   * Drops the alert's opening messages still waiting for their group window (a blip shorter than
   * the window is not news); answers their channels. Rows the relay has claimed are not touched:
   * a statement here waits for the claim and then no longer matches.
   */
  async dropWaitingOpenings(tx: Transaction, alertId: string): Promise<string[]> {
    const { rows: dropped } = await queryChanged<{ channel_id: string }>(
      tx,
      `DELETE FROM ${this.t.deliveries} WHERE ${waiting} AND kind = 'alert.opened' RETURNING channel_id`,
      [alertId],
    );
    return dropped.map((row) => row.channel_id);
  }

  /**
   * Rewrites the alert's messages still waiting with `content`: an opening or an update keeps its
   * kind, a closing replaces it. Answers their channels.
   */
  async rewriteWaiting(tx: Transaction, alertId: string, content: DeliveryContent): Promise<string[]> {
    const set =
      content.kind === 'alert.recovered'
        ? `payload = $2::jsonb, kind = $2::jsonb->>'kind'`
        : `payload = $2::jsonb || jsonb_build_object('kind', d.kind)`;
    const { rows: rewritten } = await queryChanged<{ channel_id: string }>(
      tx,
      `UPDATE ${this.t.deliveries} d SET ${set} WHERE ${waiting} RETURNING channel_id`,
      [alertId, JSON.stringify(content)],
    );
    return rewritten.map((row) => row.channel_id);
  }

  /** The enabled channels of the building (or of the whole campus). */
  async channelsOf(tx: Transaction, buildingId: string): Promise<string[]> {
    const channels = await queryRows<{ id: string }>(
      tx,
      `SELECT id FROM ${this.t.channels}
        WHERE enabled AND (building_ids IS NULL OR $1::uuid = ANY(building_ids))
        ORDER BY id`,
      [buildingId],
    );
    return channels.map((c) => c.id);
  }

  async quietHoursOf(tx: Transaction, buildingId: string): Promise<QuietHours | undefined> {
    const [quiet] = await queryRows<QuietHours>(
      tx,
      `SELECT days, starts AS start, ends AS end, time_zone AS "timeZone", outside,
              idle_rooms_wait AS "idleRoomsWait"
         FROM ${this.t.quietHours} WHERE building_id = $1`,
      [buildingId],
    );
    return quiet;
  }

  /**
   * Adds `line` to the building's digest for each channel: one waiting delivery, due at `dueAt`,
   * created as `digest` by the first line.
   */
  async addToDigest(
    tx: Transaction,
    buildingId: string,
    channelIds: string[],
    { digest, line, dueAt }: { digest: DeliveryContent; line: string; dueAt: number },
  ): Promise<void> {
    if (channelIds.length === 0) return;
    await execute(
      tx,
      `INSERT INTO ${this.t.deliveries} AS d (channel_id, kind, payload, digest_building_id, next_attempt_at)
       SELECT channel_id, 'alert.digest', $2::jsonb, $3, $4 FROM unnest($1::uuid[]) AS c(channel_id)
       ON CONFLICT (digest_building_id, channel_id)
          WHERE digest_building_id IS NOT NULL AND state = 'pending' AND attempts = 0
       DO UPDATE SET payload = jsonb_set(d.payload, '{text}', to_jsonb((d.payload->>'text') || E'\n' || $5))`,
      [channelIds, JSON.stringify(digest), buildingId, new Date(dueAt).toISOString(), line],
    );
  }

  /** The devices in an alert, as a message and the open alerts' list name them. */
  private membersSql(alertId: string): string {
    return `SELECT e.id, e.name, e.ip_address AS address, e.status, ${isoOf('st.alert_since')} AS since
              FROM ${this.t.state} st JOIN ${this.t.equipment} e ON e.id = st.equipment_id
             WHERE st.alert_id = ${alertId}`;
  }

  /**
   * Adds to each device the equipment behind it (its dependents, and theirs) that is down and in
   * no alert of its own: "unreachable behind Switch: …".
   */
  private async withBehind<T extends AlertDevice>(tx: Transaction, devices: T[]): Promise<T[]> {
    if (devices.length === 0) return devices;
    const rows = await queryRows<{ root: string; id: string; name: string; address: string | null }>(
      tx,
      `WITH RECURSIVE behind (id, root) AS (
         SELECT e.id, e.upstream_equipment_id FROM ${this.t.equipment} e WHERE e.upstream_equipment_id = ANY($1::uuid[])
         UNION
         SELECT e.id, b.root FROM ${this.t.equipment} e JOIN behind b ON e.upstream_equipment_id = b.id
       )
       SELECT b.root, e.id, e.name, e.ip_address AS address
         FROM behind b
         JOIN ${this.t.equipment} e ON e.id = b.id
         JOIN ${this.t.state} st ON st.equipment_id = e.id
        WHERE st.alert_failed_checks >= $2 AND st.alert_id IS NULL
        ORDER BY lower(e.name), e.id`,
      [devices.map((d) => d.id), this.config.ALERT_AFTER_FAILED_CHECKS],
    );
    return devices.map((d) => {
      const behind = rows
        .filter((r) => r.root === d.id)
        .map(({ id, name, address }) => ({ id, name, address }));
      return behind.length ? { ...d, behind } : d;
    });
  }
}
