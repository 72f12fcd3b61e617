import { setTimeout as sleep } from 'node:timers/promises';
import { eventually, testDatabaseUrl } from '@cm/platform/testing';
import { Client } from 'pg';
import { EquipmentEventsRelay } from '../src/catalogue/outbox/equipment-events.relay';
import { equipmentChangeReader, inventoryUnderTest, sql } from './support';

const WRITERS = 16;
const PER_WRITER = 100;

describe('inventory equipment events under concurrent writes', () => {
  const inventory = inventoryUnderTest();
  const { make } = inventory;
  const writers: Client[] = [];

  beforeAll(async () => {
    for (let w = 0; w < WRITERS; w++) {
      const client = new Client({ connectionString: testDatabaseUrl });
      writers.push(client);
      await client.connect();
    }
  });
  afterAll(() => Promise.all(writers.map((client) => client.end())));

  it('publishes the created event of every equipment exactly once, however the writes interleave', async () => {
    const reader = await equipmentChangeReader(inventory.namespace);
    const relay = inventory.sut.app.get(EquipmentEventsRelay);
    const equipment = `"${inventory.namespace}_inventory".equipment`;
    try {
      const roomId = (await make.room((await make.building()).id)).id;

      // Transactions of their own that stay open a few ms after the insert, as a slow request
      // would: seqs then commit out of their order while the relay reads and deletes the outbox.
      // Each kicks the relay after its commit, as the service does.
      const created: string[] = [];
      await Promise.all(
        writers.map(async (client, w) => {
          for (let i = 0; i < PER_WRITER; i++) {
            await client.query('BEGIN');
            const { rows } = await client.query<{ id: string }>(
              `INSERT INTO ${equipment} (room_id, name, ip_address) VALUES ($1, $2, $3) RETURNING id`,
              [roomId, `E${w}-${i}`, `10.${w}.${i}.1`],
            );
            await sleep(Math.random() * 10);
            await client.query('COMMIT');
            created.push(rows[0].id);
            relay.kick();
          }
        }),
      );

      await eventually(
        async () =>
          expect(
            await sql<{ n: number }>(inventory.sut, 'SELECT count(*)::int AS n FROM inv.equipment_events'),
          ).toEqual([{ n: 0 }]),
        15_000,
      );
      // The relay deletes an event only after the stream stored it, so with the outbox empty all
      // are there to read: a lost one makes this wait out its time and come back short. The time
      // is generous because only a lost event waits it out.
      const got = await reader.next(created.length, 30_000);
      const more = await reader.next(1, 500);

      const seen = new Map<string, number>();
      for (const event of [...got, ...more]) {
        expect(event.kind).toBe('created');
        seen.set(event.equipmentId, (seen.get(event.equipmentId) ?? 0) + 1);
      }
      const missing = created.filter((id) => !seen.has(id));
      const repeated = [...seen].filter(([, n]) => n !== 1).map(([id]) => id);
      expect({ missing, repeated }).toEqual({ missing: [], repeated: [] });
      expect(seen.size).toBe(WRITERS * PER_WRITER);
    } finally {
      await reader.close();
    }
  });
});
