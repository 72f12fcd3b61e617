import { eventually } from '@cm/platform/testing';
import { DataSource } from 'typeorm';
import { inventoryUnderTest, metricValue, sql } from './support';

describe('the equipment-change outbox backlog', () => {
  const inventory = inventoryUnderTest();
  const { make } = inventory;

  it('exports how many changes wait and how old the oldest is, while publishing is held up, and none after', async () => {
    // The relay publishes only under this lock: held here, changes pile up as when NATS is away.
    const schema = `"${inventory.namespace}_inventory"`;
    const holder = inventory.sut.app.get(DataSource).createQueryRunner();
    await holder.connect();
    try {
      await holder.query('SELECT pg_advisory_lock(hashtext($1))', [`${schema}.equipment_events.relay`]);
      const room = await make.room((await make.building()).id);
      await make.equipment(room.id, { name: 'Projector', ipAddress: '10.20.0.1' });
      await make.equipment(room.id, { name: 'Display', ipAddress: '10.20.0.2' });
      // Stored an hour ago, as far as the age is concerned, without waiting an hour.
      await sql(inventory.sut, `UPDATE inv.equipment_events SET changed_at = changed_at - interval '1 hour'`);

      expect(await metricValue(inventory.sut, 'cm_inventory_outbox_events')).toBe(2);
      const age = await metricValue(inventory.sut, 'cm_inventory_outbox_oldest_age_seconds');
      expect(age).toBeGreaterThanOrEqual(3600);
      expect(age).toBeLessThan(3600 + 600);
    } finally {
      await holder.query('SELECT pg_advisory_unlock_all()');
      await holder.release();
    }

    await eventually(async () => {
      expect(await metricValue(inventory.sut, 'cm_inventory_outbox_events')).toBe(0);
      expect(await metricValue(inventory.sut, 'cm_inventory_outbox_oldest_age_seconds')).toBe(0);
    }, 30_000);
  });
});
