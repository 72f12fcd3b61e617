import { messages } from '@cm/contracts';
import { CreateInventory1732500000000 } from '../src/migrations/1732500000000-create-inventory';
import { StatusSpans1763900000000 } from '../src/migrations/1763900000000-status-spans';
import { dropNamespace, type Inventory, newNamespace, startUpgraded } from './support';

const ours = '/objects/uploads/0b7e4c1a-9a5e-4c59-a0f3-3c1f2d7e8a90';
const alsoOurs = '/objects/uploads/6f1d2c3b-4a59-4e6f-8a7b-9c0d1e2f3a4b';

/**
 * An installation from when picture fields took any text: someone stored the sign-out address
 * and other sites' pictures. Upgrading clears those and keeps every picture the product stored.
 */
describe('inventory picture migration', () => {
  const namespace = newNamespace();
  let inventory: Inventory;
  let roomId = '';

  beforeAll(async () => {
    const migrations = [CreateInventory1732500000000, StatusSpans1763900000000];
    inventory = await startUpgraded(namespace, migrations, async (old, s) => {
      const building = async (name: string, imageUrl: string) =>
        (
          await old.query(`INSERT INTO ${s}.buildings (name, image_url) VALUES ($1, $2) RETURNING id`, [
            name,
            imageUrl,
          ])
        )[0].id as string;
      const kept = await building('Kept Hall', ours);
      await building('Planted Hall', '/api/logout');
      const [room] = await old.query(
        `INSERT INTO ${s}.rooms (building_id, name, type, floor, image_url, wiring_diagram_url, seating_layout_url)
         VALUES ($1, '101', 'Office', '1', $2, $3, $4) RETURNING id`,
        [kept, 'https://evil.example/x.png', alsoOurs, `${ours}?next=/api/logout`],
      );
      roomId = room.id;
      for (const [name, imageUrl] of [
        ['Projector', ours],
        ['Screen', '/objects/uploads/photo.jpg'],
      ]) {
        await old.query(`INSERT INTO ${s}.equipment (room_id, name, image_url) VALUES ($1, $2, $3)`, [
          roomId,
          name,
          imageUrl,
        ]);
      }
    });
  });
  afterAll(async () => {
    await inventory?.close();
    await dropNamespace(namespace);
  });

  it('clears building pictures that are not our object paths and keeps the others', async () => {
    const buildings = await inventory.rpc.send(messages.inventory.listBuildings, {});
    expect(Object.fromEntries(buildings.map((b) => [b.name, b.imageUrl]))).toEqual({
      'Kept Hall': ours,
      'Planted Hall': null,
    });
  });

  it('clears each room picture on its own', async () => {
    expect(await inventory.rpc.send(messages.inventory.getRoom, { id: roomId })).toMatchObject({
      imageUrl: null,
      wiringDiagramUrl: alsoOurs,
      seatingLayoutUrl: null,
    });
  });

  it('clears equipment pictures that are not our object paths', async () => {
    const equipment = await inventory.rpc.send(messages.inventory.listEquipment, { roomId });
    expect(Object.fromEntries(equipment.map((e) => [e.name, e.imageUrl]))).toEqual({
      Projector: ours,
      Screen: null,
    });
  });
});
