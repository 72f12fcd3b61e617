import { type Channel, type ChannelCreate, webhookHost } from '@cm/contracts';
import { queryChanged, queryRows } from '@cm/platform';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isoOf } from '../../shared/database/sql';
import { TableRepository } from '../../shared/database/table.repository';

const columns = `c.id, c.name, c.type, c.url, c.recipients, c.enabled, c.building_ids AS "buildingIds",
  c.settings->>'roomId' AS "roomId", c.settings->>'username' AS username, c.settings->'mapping' AS mapping,
  ${isoOf('c.created_at')} AS "createdAt", ${isoOf('c.updated_at')} AS "updatedAt"`;

/** A channel as the relay needs it: with its sealed secret (or credential). */
export type StoredChannel = Channel & { sealedSecret: string | null };

/** What a type keeps besides its URL that is not a credential (`settings`). */
export interface ChannelSettings {
  roomId?: string;
  /** Service desks: the integration user and how alerts are written there. */
  username?: string;
  mapping?: Record<string, unknown>;
}

type Row<T extends Channel> = Omit<T, 'host'>;
const withHost = <T extends Channel>(row: Row<T>): T => ({ ...row, host: webhookHost(row.url ?? null) }) as T;

@Injectable()
export class ChannelRepository extends TableRepository {
  constructor(dataSource: DataSource) {
    super(dataSource);
  }

  async list(): Promise<Channel[]> {
    const rows = await queryRows<Row<Channel>>(
      this.dataSource,
      `SELECT ${columns} FROM ${this.t.channels} c ORDER BY lower(c.name), c.id`,
    );
    return rows.map(withHost);
  }

  async get(id: string): Promise<StoredChannel | null> {
    const rows = await queryRows<Row<StoredChannel>>(
      this.dataSource,
      `SELECT ${columns}, c.secret AS "sealedSecret" FROM ${this.t.channels} c WHERE c.id = $1`,
      [id],
    );
    return rows[0] ? withHost(rows[0]) : null;
  }

  async create(id: string, channel: ChannelCreate, sealedSecret: string | null): Promise<Channel> {
    const [row] = await queryRows<Row<Channel>>(
      this.dataSource,
      `INSERT INTO ${this.t.channels} AS c (id, name, type, url, recipients, enabled, building_ids, secret, settings)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${columns}`,
      formValues(id, channel, sealedSecret),
    );
    return withHost(row);
  }

  /** The whole form; the secret (or credential) stays unless a new one is given. */
  async update(id: string, channel: ChannelCreate, sealedSecret: string | null): Promise<Channel | null> {
    const { rows } = await queryChanged<Row<Channel>>(
      this.dataSource,
      `UPDATE ${this.t.channels} AS c
          SET name = $2, type = $3, url = $4, recipients = $5, enabled = $6, building_ids = $7,
              secret = coalesce($8, c.secret), settings = $9, updated_at = now()
        WHERE c.id = $1
       RETURNING ${columns}`,
      formValues(id, channel, sealedSecret),
    );
    return rows[0] ? withHost(rows[0]) : null;
  }

  async setSecret(id: string, sealedSecret: string): Promise<Channel | null> {
    const { rows } = await queryChanged<Row<Channel>>(
      this.dataSource,
      `UPDATE ${this.t.channels} AS c SET secret = $2, updated_at = now() WHERE c.id = $1 RETURNING ${columns}`,
      [id, sealedSecret],
    );
    return rows[0] ? withHost(rows[0]) : null;
  }

  /** Its deliveries go with it, by the foreign key's cascade. */
  delete(id: string): Promise<boolean> {
    return this.deleteById(this.t.channels, id);
  }

  /** The ids among `ids` that name no building. */
  async missingBuildings(ids: string[]): Promise<string[]> {
    const rows = await queryRows<{ id: string }>(
      this.dataSource,
      `SELECT id FROM unnest($1::uuid[]) AS given(id)
        WHERE NOT EXISTS (SELECT 1 FROM ${this.t.buildings} b WHERE b.id = given.id)`,
      [ids],
    );
    return rows.map((row) => row.id);
  }
}

/** $1 to $9 of the create and the update: the id, the form's fields, the sealed secret, the settings. */
function formValues(id: string, channel: ChannelCreate, sealedSecret: string | null): unknown[] {
  const { name, type, url, recipients, enabled, buildingIds, roomId, username, mapping } = channel;
  const settings: ChannelSettings = roomId
    ? { roomId }
    : username
      ? { username, mapping: mapping ?? undefined }
      : {};
  return [id, name, type, url, recipients, enabled, buildingIds, sealedSecret, JSON.stringify(settings)];
}
