import {
  type Alert,
  type AlertDevice,
  type AlertMessageKind,
  type DeliveryContent,
  type OpenAlert,
  type OpenAlertQuery,
  type QuietHours,
} from '@cm/contracts';
import { CONFIG } from '@cm/platform';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { type Config } from '../../config';
import { isoOf, type Tables, tablesOf } from '../../shared/database/sql';
import { MaintenanceWindowsService } from '../../status/maintenance/maintenance-windows.service';
import { isTeaching, nextTeachingStart } from './quiet-hours';
import { DeliveryRepository } from '../notifications/delivery.repository';
import {
  alertText,
  type AlertObservation,
  type AlertRules,
  type DeviceAlertState,
  type DeviceStep,
  flappingText,
  recoveredText,
  stepDevice,
} from './alert-rules';

/** An equipment of a status batch: its room, its alert state as loaded, what the batch applied. */
export interface BatchDevice {
  id: string;
  roomId: string;
  prev: DeviceAlertState;
  observations: AlertObservation[];
}

/** What the alert decisions of one transaction did, for the caller to act on after its commit. */
export interface AlertOutcome {
  /** Deliveries queued (the relay is kicked after the commit). */
  queued: number;
  /** Rooms whose open alert opened, changed or closed (live events after the commit). */
  rooms: { roomId: string; buildingId: string }[];
}

interface RoomRow {
  id: string;
  name: string;
  buildingId: string;
  buildingName: string;
}

interface AlertRow {
  id: string;
  roomId: string;
  openedAt: string;
  devices: AlertDevice[];
}

export const noAlerts = (): AlertOutcome => ({ queued: 0, rooms: [] });

/** The devices a message names, and those it lists behind each: what a new message is sent for. */
const signature = (devices: readonly AlertDevice[]) =>
  devices
    .flatMap((d) => [d.id, ...(d.behind ?? []).map((b) => `${d.id}>${b.id}`)])
    .sort()
    .join();

/**
 * Decides alerts inside the transaction that records a batch of checks, so a decision and the
 * deliveries it queues commit with the checks that caused them, and a redelivered batch (whose
 * checks are all duplicates) decides nothing again. The batch holds its equipment's state rows;
 * each room is locked (its row, in id order) while its alert is changed, so batches of two
 * replicas that touch one room take turns.
 */
@Injectable()
export class AlertRepository {
  private readonly t: Tables;
  private readonly rules: AlertRules;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(CONFIG) private readonly config: Config,
    private readonly windows: MaintenanceWindowsService,
    private readonly deliveries: DeliveryRepository,
  ) {
    this.t = tablesOf(dataSource);
    this.rules = {
      afterFailedChecks: config.ALERT_AFTER_FAILED_CHECKS,
      flapThreshold: config.ALERT_FLAP_THRESHOLD,
    };
  }

  /** The alert state columns of `equipment_state` (alias `st`), as `stateOf` reads them. */
  static readonly stateColumns = `st.alert_failed_checks, st.alert_id, ${isoOf('st.alert_since')} AS alert_since,
    st.alert_changes, ${isoOf('st.alert_flapping_at')} AS alert_flapping_at`;

  static stateOf(row: {
    alert_failed_checks: number;
    alert_id: string | null;
    alert_since: string | null;
    alert_changes: string[];
    alert_flapping_at: string | null;
  }): DeviceAlertState {
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
    const [place]: { room: boolean; building: boolean }[] = await this.dataSource.query(
      `SELECT $1::uuid IS NULL OR EXISTS (SELECT 1 FROM ${this.t.rooms} WHERE id = $1) AS room,
              $2::uuid IS NULL OR EXISTS (SELECT 1 FROM ${this.t.buildings} WHERE id = $2) AS building`,
      [query.roomId ?? null, query.buildingId ?? null],
    );
    if (!place.room || !place.building) return null;
    const alerts: OpenAlert[] = await this.dataSource.query(
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

  /** In the batch's transaction, after its statuses were written. */
  async afterChecks(manager: EntityManager, devices: readonly BatchDevice[]): Promise<AlertOutcome> {
    const now = Date.now();
    const steps: (DeviceStep & BatchDevice)[] = devices
      .filter((d) => d.observations.length > 0)
      .map((d) => ({ ...d, ...stepDevice(d.prev, d.observations, this.rules, now) }));
    const changed = steps.filter((s) => !sameState(s.prev, s.state));
    if (changed.length === 0) return noAlerts();
    await this.writeStates(manager, changed);

    const candidates = steps.filter((s) => s.wantsAlert && s.state.alertId === null);
    const covered = candidates.length
      ? await this.windows.coveringEquipment(
          candidates.map((s) => s.id),
          new Date(now),
        )
      : new Map();
    const behindFailing = await this.failingUpstreams(
      manager,
      candidates.filter((s) => !covered.has(s.id)).map((s) => s.id),
    );
    const joiners = new Map<string, string[]>();
    const rooms = new Set<string>();
    for (const s of candidates) {
      if (covered.has(s.id)) continue;
      const upstreamRoom = behindFailing.get(s.id);
      if (upstreamRoom) {
        // Listed in the upstream's alert (its room's message is brought up to date), not alerted.
        rooms.add(upstreamRoom);
        continue;
      }
      joiners.set(s.roomId, [...(joiners.get(s.roomId) ?? []), s.id]);
    }
    for (const room of [...joiners.keys(), ...steps.filter((s) => s.leaves).map((s) => s.roomId)]) {
      rooms.add(room);
    }
    const flapped = steps.filter((s) => s.flapped);
    for (const s of flapped) rooms.add(s.roomId);
    if (rooms.size === 0) return noAlerts();
    return this.settle(manager, [...rooms], joiners, flapped);
  }

  /**
   * Brings the open alerts of rooms up to date in a transaction of its own: for equipment that
   * was deleted, moved out, lost its address or was set to maintenance by a person.
   */
  settleRooms(roomIds: readonly string[]): Promise<AlertOutcome> {
    return this.dataSource.transaction((manager) => this.settle(manager, roomIds, new Map(), []));
  }

  /** Of the equipment given, those whose upstream device is failing now: by id, the upstream's room. */
  private async failingUpstreams(manager: EntityManager, ids: string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows: { id: string; roomId: string }[] = await manager.query(
      `SELECT e.id, u.room_id AS "roomId"
         FROM ${this.t.equipment} e
         JOIN ${this.t.equipment} u ON u.id = e.upstream_equipment_id
         JOIN ${this.t.state} ust ON ust.equipment_id = u.id
        WHERE e.id = ANY($1::uuid[]) AND ust.alert_failed_checks > 0`,
      [ids],
    );
    return new Map(rows.map((r) => [r.id, r.roomId]));
  }

  /**
   * Adds to each device the equipment behind it (its dependents, and theirs) that is down and in
   * no alert of its own: "unreachable behind Switch: …".
   */
  private async withBehind<T extends AlertDevice>(manager: EntityManager, devices: T[]): Promise<T[]> {
    if (devices.length === 0) return devices;
    const rows: { root: string; id: string; name: string; address: string | null }[] = await manager.query(
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
      [devices.map((d) => d.id), this.rules.afterFailedChecks],
    );
    return devices.map((d) => {
      const behind = rows
        .filter((r) => r.root === d.id)
        .map(({ id, name, address }) => ({ id, name, address }));
      return behind.length ? { ...d, behind } : d;
    });
  }

  private async writeStates(manager: EntityManager, steps: readonly (DeviceStep & BatchDevice)[]) {
    const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());
    await manager.query(
      `UPDATE ${this.t.state} st
          SET alert_failed_checks = x.failed, alert_id = x.alert_id, alert_since = x.since,
              alert_changes = x.changes, alert_flapping_at = x.flapping_at
         FROM jsonb_to_recordset($1::jsonb) AS x (
                equipment_id uuid, failed integer, alert_id uuid, since timestamptz, changes bigint[],
                flapping_at timestamptz)
        WHERE st.equipment_id = x.equipment_id`,
      [
        JSON.stringify(
          steps.map(({ id, state }) => ({
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

  private async settle(
    manager: EntityManager,
    roomIds: readonly string[],
    joiners: ReadonlyMap<string, string[]>,
    flapped: readonly (DeviceStep & BatchDevice)[],
  ): Promise<AlertOutcome> {
    const outcome = noAlerts();
    // Locked in id order, so two batches over the same rooms wait for each other, never deadlock.
    const rooms: RoomRow[] = await manager.query(
      `SELECT r.id, r.name, b.id AS "buildingId", b.name AS "buildingName"
         FROM ${this.t.rooms} r JOIN ${this.t.buildings} b ON b.id = r.building_id
        WHERE r.id = ANY($1::uuid[])
        ORDER BY r.id
          FOR NO KEY UPDATE OF r`,
      [[...new Set(roomIds)]],
    );
    const open: AlertRow[] = await manager.query(
      `SELECT id, room_id AS "roomId", ${isoOf('opened_at')} AS "openedAt", devices
         FROM ${this.t.alerts} WHERE room_id = ANY($1::uuid[]) AND closed_at IS NULL`,
      [rooms.map((r) => r.id)],
    );
    const openByRoom = new Map(open.map((a) => [a.roomId, a]));
    for (const room of rooms) {
      const changed = await this.settleRoom(manager, room, openByRoom.get(room.id) ?? null, joiners, outcome);
      if (changed) outcome.rooms.push({ roomId: room.id, buildingId: room.buildingId });
      for (const s of flapped.filter((f) => f.roomId === room.id)) {
        await this.reportFlapping(manager, room, s, outcome);
      }
    }
    return outcome;
  }

  /** Whether the room's open alert opened, changed or closed. */
  private async settleRoom(
    manager: EntityManager,
    room: RoomRow,
    stored: AlertRow | null,
    joiners: ReadonlyMap<string, string[]>,
    outcome: AlertOutcome,
  ): Promise<boolean> {
    const joining = joiners.get(room.id) ?? [];
    if (!stored && joining.length === 0) return false;
    let alert = stored;
    if (!alert) {
      [alert] = (await manager.query(
        `INSERT INTO ${this.t.alerts} (room_id) VALUES ($1)
         RETURNING id, room_id AS "roomId", ${isoOf('opened_at')} AS "openedAt", devices`,
        [room.id],
      )) as AlertRow[];
    }
    if (joining.length) {
      await manager.query(`UPDATE ${this.t.state} SET alert_id = $1 WHERE equipment_id = ANY($2::uuid[])`, [
        alert.id,
        joining,
      ]);
    }
    // Members that are no longer this room's monitored equipment, or that a person took over.
    await manager.query(
      `UPDATE ${this.t.state} st SET alert_id = NULL, alert_failed_checks = 0, alert_since = NULL
         FROM ${this.t.equipment} e
        WHERE st.alert_id = $1 AND e.id = st.equipment_id
          AND (e.room_id <> $2 OR e.ip_address IS NULL OR e.status = 'maintenance')`,
      [alert.id, room.id],
    );
    const members = await this.members(manager, alert.id);
    if (stored && signature(members) === signature(stored.devices)) return false;
    if (!stored && members.length === 0) {
      await manager.query(`DELETE FROM ${this.t.alerts} WHERE id = $1`, [alert.id]);
      return false;
    }

    const monitored = await this.monitored(manager, room.id);
    const view = this.view(room, alert, monitored, members);
    if (members.length === 0) {
      // An UPDATE answers its rows and its count.
      const [[closed]]: [{ closedAt: string; allAnswering: boolean }[]] = await manager.query(
        `UPDATE ${this.t.alerts} a SET closed_at = now(), updated_at = now()
          WHERE id = $1
         RETURNING ${isoOf('closed_at')} AS "closedAt",
                   NOT EXISTS (SELECT 1 FROM jsonb_array_elements(a.devices) d
                                LEFT JOIN ${this.t.equipment} e ON e.id = (d->>'id')::uuid
                               WHERE e.id IS NULL OR e.status <> 'active') AS "allAnswering"`,
        [alert.id],
      );
      const closedView = { ...view, closedAt: closed.closedAt, devices: stored?.devices ?? [] };
      const downMs = Date.parse(closed.closedAt) - Date.parse(alert.openedAt);
      await this.message(manager, room, alert.id, outcome, {
        kind: 'alert.recovered',
        text: recoveredText(closedView, closed.allAnswering, downMs),
        alert: closedView,
      });
    } else {
      await manager.query(`UPDATE ${this.t.alerts} SET devices = $2, updated_at = now() WHERE id = $1`, [
        alert.id,
        JSON.stringify(members),
      ]);
      const text = alertText(view);
      await this.message(manager, room, alert.id, outcome, {
        kind: stored ? 'alert.updated' : 'alert.opened',
        text,
        // The mail subject: the room and the count, the devices in the body.
        subject: text.split(' — ')[0],
        alert: view,
      });
    }
    return true;
  }

  private async reportFlapping(
    manager: EntityManager,
    room: RoomRow,
    step: DeviceStep & BatchDevice,
    outcome: AlertOutcome,
  ): Promise<void> {
    const [device]: AlertDevice[] = await manager.query(
      `SELECT e.id, e.name, e.ip_address AS address, e.status, NULL AS since
         FROM ${this.t.equipment} e WHERE e.id = $1`,
      [step.id],
    );
    if (!device) return;
    const [open]: { id: string; openedAt: string }[] = await manager.query(
      `SELECT id, ${isoOf('opened_at')} AS "openedAt" FROM ${this.t.alerts} WHERE room_id = $1 AND closed_at IS NULL`,
      [room.id],
    );
    const view: Alert = {
      ...this.view(room, open ?? null, await this.monitored(manager, room.id), [device]),
    };
    await this.message(manager, room, null, outcome, {
      kind: 'alert.flapping',
      text: flappingText(view, device, step.state.changes.length),
      alert: view,
    });
  }

  /** The devices in an alert, as a message and the open alerts' list name them. */
  private membersSql(alertId: string): string {
    return `SELECT e.id, e.name, e.ip_address AS address, e.status, ${isoOf('st.alert_since')} AS since
              FROM ${this.t.state} st JOIN ${this.t.equipment} e ON e.id = st.equipment_id
             WHERE st.alert_id = ${alertId}`;
  }

  private async members(manager: EntityManager, alertId: string): Promise<AlertDevice[]> {
    const devices: AlertDevice[] = await manager.query(
      `${this.membersSql('$1')} ORDER BY lower(e.name), e.id`,
      [alertId],
    );
    return this.withBehind(manager, devices);
  }

  private async monitored(manager: EntityManager, roomId: string): Promise<number> {
    const [row]: { n: number }[] = await manager.query(
      `SELECT count(*)::int AS n FROM ${this.t.equipment} WHERE room_id = $1 AND ip_address IS NOT NULL`,
      [roomId],
    );
    return row.n;
  }

  private view(
    room: RoomRow,
    alert: { id: string; openedAt: string } | null,
    monitored: number,
    devices: AlertDevice[],
  ): Alert {
    return {
      id: alert?.id ?? null,
      room: { id: room.id, name: room.name },
      building: { id: room.buildingId, name: room.buildingName },
      openedAt: alert?.openedAt ?? null,
      closedAt: null,
      monitored,
      devices,
    };
  }

  /**
   * Queues a message to every enabled channel of the room's building (or of the whole campus).
   * A message of the alert still waiting for its group window is rewritten instead, keeping its
   * kind; an opening that never went out and is now closed is dropped, not followed by a recovery
   * (a blip shorter than the window is not news). Rows the relay has claimed are not touched: an
   * UPDATE here waits for its claim and then no longer matches, so they are followed by this one.
   */
  /**
   * Outside teaching hours with a digest: the message becomes a line of the building's digest
   * for each channel, one waiting delivery due when teaching starts (created by the first line).
   */
  private async addToDigest(
    manager: EntityManager,
    room: RoomRow,
    channelIds: string[],
    content: DeliveryContent,
    { dueAt }: { dueAt: number },
  ): Promise<void> {
    if (channelIds.length === 0) return;
    const digest: DeliveryContent = {
      kind: 'alert.digest',
      subject: `${room.buildingName}: alerts outside teaching hours`,
      text: `${room.buildingName}, outside teaching hours:\n${content.text}`,
    };
    await manager.query(
      `INSERT INTO ${this.t.deliveries} AS d (channel_id, kind, payload, digest_building_id, next_attempt_at)
       SELECT channel_id, 'alert.digest', $2::jsonb, $3, $4 FROM unnest($1::uuid[]) AS c(channel_id)
       ON CONFLICT (digest_building_id, channel_id)
          WHERE digest_building_id IS NOT NULL AND state = 'pending' AND attempts = 0
       DO UPDATE SET payload = jsonb_set(d.payload, '{text}', to_jsonb((d.payload->>'text') || E'\n' || $5))`,
      [channelIds, JSON.stringify(digest), room.buildingId, new Date(dueAt).toISOString(), content.text],
    );
  }

  private async message(
    manager: EntityManager,
    room: RoomRow,
    alertId: string | null,
    outcome: AlertOutcome,
    content: DeliveryContent & { kind: AlertMessageKind },
  ): Promise<void> {
    const done = new Set<string>();
    if (alertId) {
      const waiting = `alert_id = $1 AND state = 'pending' AND attempts = 0`;
      if (content.kind === 'alert.recovered') {
        const [dropped]: [{ channel_id: string }[]] = await manager.query(
          `DELETE FROM ${this.t.deliveries} WHERE ${waiting} AND kind = 'alert.opened' RETURNING channel_id`,
          [alertId],
        );
        for (const row of dropped) done.add(row.channel_id);
      }
      // A waiting opening or update keeps its kind and takes the new text; a closing replaces it.
      const set =
        content.kind === 'alert.recovered'
          ? `payload = $2::jsonb, kind = $2::jsonb->>'kind'`
          : `payload = $2::jsonb || jsonb_build_object('kind', d.kind)`;
      const [rewritten]: [{ channel_id: string }[]] = await manager.query(
        `UPDATE ${this.t.deliveries} d SET ${set} WHERE ${waiting} RETURNING channel_id`,
        [alertId, JSON.stringify(content)],
      );
      for (const row of rewritten) done.add(row.channel_id);
    }
    const channels: { id: string }[] = await manager.query(
      `SELECT id FROM ${this.t.channels}
        WHERE enabled AND (building_ids IS NULL OR $1::uuid = ANY(building_ids))
        ORDER BY id`,
      [room.buildingId],
    );
    const [quiet]: QuietHours[] = await manager.query(
      `SELECT days, starts AS start, ends AS end, time_zone AS "timeZone", outside
         FROM ${this.t.quietHours} WHERE building_id = $1`,
      [room.buildingId],
    );
    const now = Date.now();
    if (quiet && !isTeaching(quiet, now)) {
      if (quiet.outside === 'digest') {
        await this.addToDigest(
          manager,
          room,
          channels.filter((c) => !done.has(c.id)).map((c) => c.id),
          content,
          {
            dueAt: nextTeachingStart(quiet, now),
          },
        );
      }
      return;
    }
    const grouped = content.kind === 'alert.opened' || content.kind === 'alert.updated';
    const ids = await this.deliveries.enqueue(
      channels
        .filter((c) => !done.has(c.id))
        .map((c) => ({
          channelId: c.id,
          content,
          alertId,
          delayMs: grouped ? this.config.ALERT_GROUP_WINDOW_MS : 0,
        })),
      manager,
    );
    outcome.queued += ids.length;
  }
}

function sameState(a: DeviceAlertState, b: DeviceAlertState): boolean {
  return (
    a.failedChecks === b.failedChecks &&
    a.alertId === b.alertId &&
    a.since === b.since &&
    a.flappingAt === b.flappingAt &&
    a.changes.length === b.changes.length &&
    a.changes.every((t, i) => t === b.changes[i])
  );
}
