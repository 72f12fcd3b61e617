import { type AlertDevice, type IncidentRef } from '@cm/contracts';
import { queryChanged, queryRows } from '@cm/platform';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isoOf } from '../../../shared/database/sql';
import { TableRepository } from '../../../shared/database/table.repository';
import { type DeskChannel, type Episode, type RemoteIncident } from './desk-client';

/** A device as the incident named it. */
export interface NotedDevice {
  id: string;
  name: string;
  address: string | null;
}

/** Our record of one channel's incident for one room alert. */
export interface IncidentRow {
  remote: RemoteIncident | null;
  state: 'open' | 'resolved' | 'closed';
  /** The devices the incident last named. */
  noted: NotedDevice[];
}

const roomLabel = (name: string) => (/^\d/.test(name) ? `Room ${name}` : name);

/**
 * `service_desk_incidents`: one row per channel and room alert. An attempt claims the row (a lease
 * on the injected clock, as deliveries' are) before it talks to the service desk, so two attempts
 * (a retry and an update, two replicas) never both open an incident or both resolve it.
 */
@Injectable()
export class IncidentRepository extends TableRepository {
  constructor(dataSource: DataSource) {
    super(dataSource);
  }

  /** The room alert as it is now; null when it is gone (its room was deleted). */
  async episode(alertId: string): Promise<(Omit<Episode, 'link'> & { buildingId: string }) | null> {
    const [row] = await queryRows<
      Omit<Episode, 'link' | 'place'> & { room: string; building: string; buildingId: string }
    >(
      this.dataSource,
      `SELECT a.id AS "alertId", a.room_id AS "roomId", r.building_id AS "buildingId", r.name AS room, b.name AS building,
              ${isoOf('a.opened_at')} AS "openedAt",
              CASE WHEN a.closed_at IS NULL THEN NULL ELSE ${isoOf('a.closed_at')} END AS "closedAt",
              (SELECT count(*)::int FROM ${this.t.equipment} m WHERE m.room_id = r.id AND m.ip_address IS NOT NULL)
                AS monitored,
              a.devices
         FROM ${this.t.alerts} a
         JOIN ${this.t.rooms} r ON r.id = a.room_id
         JOIN ${this.t.buildings} b ON b.id = r.building_id
        WHERE a.id = $1`,
      [alertId],
    );
    if (!row) return null;
    const { room, building, ...episode } = row;
    return { ...episode, devices: row.devices as AlertDevice[], place: `${roomLabel(room)}, ${building}` };
  }

  /**
   * Claims the row (making it if there is none) until `leaseUntil`; null when another attempt
   * holds it. A lease left by an attempt that died runs out, and the row is claimed again.
   */
  async claim(
    channelId: string,
    alertId: string,
    key: string,
    now: Date,
    leaseUntil: Date,
  ): Promise<IncidentRow | null> {
    const [row] = await queryRows<{
      id: string | null;
      number: string;
      url: string;
      state: IncidentRow['state'];
      noted: NotedDevice[];
    }>(
      this.dataSource,
      `INSERT INTO ${this.t.incidents} AS i (channel_id, alert_id, correlation_key, lease_until)
       VALUES ($1, $2, $3, $5)
       ON CONFLICT (channel_id, alert_id) DO UPDATE SET lease_until = $5
        WHERE i.lease_until IS NULL OR i.lease_until <= $4
       RETURNING i.remote_id AS id, i.number, i.url, i.state, i.noted_devices AS noted`,
      [channelId, alertId, key, now, leaseUntil],
    );
    if (!row) return null;
    const remote = row.id
      ? { id: row.id, number: row.number, url: row.url, closed: row.state !== 'open' }
      : null;
    return { remote, state: row.state, noted: row.noted };
  }

  /** Records what the service desk has, and lets the row go. */
  async record(channelId: string, alertId: string, row: IncidentRow): Promise<void> {
    await queryChanged(
      this.dataSource,
      `UPDATE ${this.t.incidents}
          SET remote_id = $3, number = $4, url = $5, state = $6, noted_devices = $7, lease_until = NULL, updated_at = now()
        WHERE channel_id = $1 AND alert_id = $2`,
      [
        channelId,
        alertId,
        row.remote?.id ?? null,
        row.remote?.number ?? null,
        row.remote?.url ?? null,
        row.state,
        JSON.stringify(row.noted),
      ],
    );
  }

  /** Lets the row go as it is (an attempt that failed). */
  async release(channelId: string, alertId: string): Promise<void> {
    await queryChanged(
      this.dataSource,
      `UPDATE ${this.t.incidents} SET lease_until = NULL WHERE channel_id = $1 AND alert_id = $2`,
      [channelId, alertId],
    );
  }

  /** A row for an alert that ended before any incident was opened: nothing to keep. */
  async forget(channelId: string, alertId: string): Promise<void> {
    await queryChanged(
      this.dataSource,
      `DELETE FROM ${this.t.incidents} WHERE channel_id = $1 AND alert_id = $2 AND remote_id IS NULL`,
      [channelId, alertId],
    );
  }

  /** Incidents still open here whose room alert has ended (or is gone): resolves that were missed. */
  async unresolved(): Promise<
    { channelId: string; alertId: string; number: string | null; gone: boolean }[]
  > {
    return queryRows(
      this.dataSource,
      `SELECT i.channel_id AS "channelId", i.alert_id AS "alertId", i.number, a.id IS NULL AS gone
         FROM ${this.t.incidents} i
         JOIN ${this.t.channels} c ON c.id = i.channel_id AND c.enabled
         LEFT JOIN ${this.t.alerts} a ON a.id = i.alert_id
        WHERE i.state = 'open' AND (a.id IS NULL OR a.closed_at IS NOT NULL)
        ORDER BY i.created_at`,
    );
  }

  /** Enabled service desk channels, for the reconciliation's listing. */
  async deskChannels(): Promise<DeskChannel[]> {
    return queryRows(
      this.dataSource,
      `SELECT c.id, c.name, c.type, c.url, c.secret AS "sealedSecret", c.settings
         FROM ${this.t.channels} c
        WHERE c.enabled AND c.type IN ('servicenow', 'jira-service-management') AND c.secret IS NOT NULL
        ORDER BY c.created_at, c.id`,
    );
  }

  /**
   * Among the alerts of incidents a channel's service desk has open, those that ended here and
   * whose incident we do not track (no row names it: it was opened by an attempt that died
   * before recording it, or its row was lost) and that no message still waits to mend. An alert
   * still open is left to its own messages; one we track, to `unresolved` (or, resolved or closed
   * by us, to the person who reopened it).
   */
  async lostTrack(channelId: string, alertIds: string[]): Promise<string[]> {
    if (alertIds.length === 0) return [];
    const rows = await queryRows<{ id: string }>(
      this.dataSource,
      `SELECT a.id FROM ${this.t.alerts} a
        WHERE a.id = ANY($2::uuid[]) AND a.closed_at IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM ${this.t.incidents} i
                           WHERE i.channel_id = $1 AND i.alert_id = a.id AND i.remote_id IS NOT NULL)
          AND NOT EXISTS (SELECT 1 FROM ${this.t.deliveries} d
                           WHERE d.channel_id = $1 AND d.alert_id = a.id AND d.state IN ('pending', 'sending'))
        ORDER BY a.closed_at, a.id`,
      [channelId, alertIds],
    );
    return rows.map((row) => row.id);
  }

  /**
   * Whether this replica does the periodic work `name` now: true for one caller once `everyMs`
   * has passed since the last round (a conditional update decides among replicas).
   */
  async claimRun(name: string, now: Date, everyMs: number): Promise<boolean> {
    const rows = await queryRows(
      this.dataSource,
      `INSERT INTO ${this.t.scheduledRuns} AS r (name, last_run_at) VALUES ($1, $2)
       ON CONFLICT (name) DO UPDATE SET last_run_at = $2
        WHERE r.last_run_at <= $2::timestamptz - $3::int * interval '1 millisecond'
       RETURNING name`,
      [name, now, everyMs],
    );
    return rows.length > 0;
  }

  /** The incidents of these alerts, for the room's alert and the delivery log. */
  async refs(alertIds: string[]): Promise<(IncidentRef & { alertId: string })[]> {
    if (alertIds.length === 0) return [];
    return queryRows(
      this.dataSource,
      `SELECT i.alert_id AS "alertId", i.channel_id AS "channelId", c.name AS "channelName", i.number, i.url, i.state
         FROM ${this.t.incidents} i JOIN ${this.t.channels} c ON c.id = i.channel_id
        WHERE i.alert_id = ANY($1::uuid[]) AND i.number IS NOT NULL
        ORDER BY lower(c.name), c.id`,
      [alertIds],
    );
  }
}
