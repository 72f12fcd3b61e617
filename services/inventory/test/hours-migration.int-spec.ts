import { messages } from '@cm/contracts';
import { CreateInventory1732500000000 } from '../src/migrations/1732500000000-create-inventory';
import { StatusSpans1763900000000 } from '../src/migrations/1763900000000-status-spans';
import { ClearForeignPictures1764000000000 } from '../src/migrations/1764000000000-clear-foreign-pictures';
import { SearchIndexes1764100000000 } from '../src/migrations/1764100000000-search-indexes';
import { dropNamespace, type Inventory, newNamespace, sql, startUpgraded } from './support';

/**
 * An installation from before the hour counters: each state row holds its current day's counters,
 * and earlier days are rows. Upgrading moves the current day's counters to its day row, so no
 * check counted before is lost, and hours start being counted.
 */
describe('inventory hour counters migration', () => {
  const namespace = newNamespace();
  let inventory: Inventory;
  let equipmentId = '';
  const today = new Date().toISOString().slice(0, 10);

  beforeAll(async () => {
    const migrations = [
      CreateInventory1732500000000,
      StatusSpans1763900000000,
      ClearForeignPictures1764000000000,
      SearchIndexes1764100000000,
    ];
    inventory = await startUpgraded(namespace, migrations, async (old, s) => {
      const [building] = await old.query(`INSERT INTO ${s}.buildings (name) VALUES ('Hall') RETURNING id`);
      const [room] = await old.query(
        `INSERT INTO ${s}.rooms (building_id, name, type, floor) VALUES ($1, '101', 'Office', '1') RETURNING id`,
        [building.id],
      );
      const [equipment] = await old.query(
        `INSERT INTO ${s}.equipment (room_id, name, ip_address) VALUES ($1, 'Projector', '10.0.0.5') RETURNING id`,
        [room.id],
      );
      equipmentId = equipment.id;
      await old.query(
        `UPDATE ${s}.equipment_state
            SET day = $2, day_checks = 100, day_answered = 90, day_pings = 200, day_pings_answered = 180,
                day_rtt_min = 0.5, day_rtt_max = 4, day_rtt_sum = 90
          WHERE equipment_id = $1`,
        [equipmentId, today],
      );
      // A row of the same day already written (by a late check): the two add up.
      await old.query(
        `INSERT INTO ${s}.status_days (equipment_id, day, checks, answered, pings, pings_answered, rtt_min, rtt_max, rtt_sum)
         VALUES ($1, $2, 1, 1, 2, 2, 0.2, 1, 1)`,
        [equipmentId, today],
      );
    });
  });
  afterAll(async () => {
    await inventory?.close();
    await dropNamespace(namespace);
  });

  it("moves each device's counters of its current day to its day row, and starts hours empty", async () => {
    expect(
      await sql(
        inventory,
        'SELECT checks, answered, pings, pings_answered, rtt_min, rtt_max, rtt_sum FROM inv.status_days',
      ),
    ).toEqual([
      { checks: 101, answered: 91, pings: 202, pings_answered: 182, rtt_min: 0.2, rtt_max: 4, rtt_sum: 91 },
    ]);
    expect(await sql(inventory, 'SELECT hour, hour_checks FROM inv.equipment_state')).toEqual([
      { hour: null, hour_checks: 0 },
    ]);
    const history = await inventory.rpc.send(messages.inventory.equipmentHistory, { id: equipmentId });
    expect(history.summary.loss24h.percent).toBeNull();
  });
});
