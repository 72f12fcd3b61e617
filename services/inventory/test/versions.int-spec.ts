import { ErrorCode, messages } from '@cm/contracts';
import { failureOf, inventoryUnderTest, sql } from './support';

describe('inventory record versions', () => {
  const inventory = inventoryUnderTest();
  const { make, send } = inventory;

  beforeEach(() => sql(inventory.sut, 'DELETE FROM inv.buildings'));

  it('counts each edit of a building and refuses one made on an older version, changing nothing', async () => {
    const b = await make.building({ name: 'Arts' });
    expect(b.version).toBe(1);
    const first = await send(messages.inventory.updateBuilding, {
      id: b.id,
      changes: { name: 'Arts 2' },
      ifVersion: 1,
    });
    expect(first).toMatchObject({ name: 'Arts 2', version: 2 });
    const stale = await failureOf(
      send(messages.inventory.updateBuilding, { id: b.id, changes: { name: 'Arts 3' }, ifVersion: 1 }),
    );
    expect(stale).toMatchObject({ code: ErrorCode.STALE_VERSION });
    expect(stale.message).toContain('changed by someone else');
    await expect(send(messages.inventory.getBuilding, { id: b.id })).resolves.toMatchObject({
      name: 'Arts 2',
      version: 2,
    });
    // Without a version the edit applies to whatever is current, as before.
    await expect(
      send(messages.inventory.updateBuilding, { id: b.id, changes: { name: 'Arts 4' } }),
    ).resolves.toMatchObject({ name: 'Arts 4', version: 3 });
  });

  it('answers not found, not stale, for a versioned edit of a building that is gone', async () => {
    const b = await make.building();
    await send(messages.inventory.deleteBuilding, { id: b.id });
    const error = await failureOf(
      send(messages.inventory.updateBuilding, { id: b.id, changes: { name: 'X' }, ifVersion: 1 }),
    );
    expect(error).toMatchObject({ code: ErrorCode.BUILDING_NOT_FOUND });
  });

  it('refuses a stale room edit', async () => {
    const b = await make.building();
    const room = await make.room(b.id);
    await send(messages.inventory.updateRoom, { id: room.id, changes: { name: 'A' }, ifVersion: 1 });
    const stale = await failureOf(
      send(messages.inventory.updateRoom, { id: room.id, changes: { name: 'B' }, ifVersion: 1 }),
    );
    expect(stale).toMatchObject({ code: ErrorCode.STALE_VERSION });
    await expect(send(messages.inventory.getRoom, { id: room.id })).resolves.toMatchObject({
      name: 'A',
      version: 2,
    });
  });

  it('refuses a stale equipment edit before its status change is recorded', async () => {
    const b = await make.building();
    const room = await make.room(b.id);
    const e = await make.equipment(room.id);
    const changes = { roomId: room.id, name: 'Projector', status: 'maintenance' as const };
    await send(messages.inventory.updateEquipment, {
      id: e.id,
      changes: { ...changes, notes: 'lamp' },
      ifVersion: 1,
    });
    const stale = await failureOf(
      send(messages.inventory.updateEquipment, {
        id: e.id,
        changes: { ...changes, status: 'inactive' },
        ifVersion: 1,
      }),
    );
    expect(stale).toMatchObject({ code: ErrorCode.STALE_VERSION });
    await expect(send(messages.inventory.getEquipment, { id: e.id })).resolves.toMatchObject({
      status: 'maintenance',
      notes: 'lamp',
      version: 2,
    });
  });
});
