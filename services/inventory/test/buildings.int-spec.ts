import { ErrorCode, messages } from '@cm/contracts';
import { randomUUID } from 'node:crypto';
import { failureOf, inventoryUnderTest, sql } from './support';

describe('inventory buildings', () => {
  const inventory = inventoryUnderTest();
  const { make, send } = inventory;

  beforeEach(() => sql(inventory.sut, 'DELETE FROM inv.buildings'));

  it('creates a building and answers it with its id, trimmed, empty text stored as null', async () => {
    const created = await send(messages.inventory.createBuilding, {
      name: '  Science Hall ',
      description: '',
    });
    expect(created).toEqual({
      id: expect.any(String),
      name: 'Science Hall',
      description: null,
      imageUrl: null,
      version: 1,
    });
    await expect(send(messages.inventory.getBuilding, { id: created.id })).resolves.toEqual(created);
  });

  it('lists buildings by name, case aside, each with its room count', async () => {
    const zoo = await make.building({ name: 'zoology' });
    const arts = await make.building({
      name: 'Arts',
      description: 'Old wing',
      imageUrl: '/objects/uploads/0b7e4c1a-9a5e-4c59-a0f3-3c1f2d7e8a90',
    });
    await make.room(zoo.id);
    await make.room(zoo.id, { name: '102' });
    const list = await send(messages.inventory.listBuildings, {});
    expect(list).toEqual([
      {
        ...arts,
        roomCount: 0,
        statusCounts: { active: 0, inactive: 0, partial: 0, maintenance: 0 },
        faults: 0,
      },
      {
        ...zoo,
        roomCount: 2,
        statusCounts: { active: 0, inactive: 0, partial: 0, maintenance: 0 },
        faults: 0,
      },
    ]);
  });

  it('edits a building, keeping a photo the edit leaves out and clearing one sent empty', async () => {
    const b = await make.building({
      description: 'd',
      imageUrl: '/objects/uploads/6f1d2c3b-4a59-4e6f-8a7b-9c0d1e2f3a4b',
    });
    const renamed = await send(messages.inventory.updateBuilding, {
      id: b.id,
      changes: { name: 'Physics Hall', description: 'new' },
    });
    expect(renamed).toEqual({
      id: b.id,
      name: 'Physics Hall',
      description: 'new',
      imageUrl: '/objects/uploads/6f1d2c3b-4a59-4e6f-8a7b-9c0d1e2f3a4b',
      version: 2,
    });
    const cleared = await send(messages.inventory.updateBuilding, {
      id: b.id,
      changes: { name: 'Physics Hall', imageUrl: '' },
    });
    expect(cleared.imageUrl).toBeNull();
  });

  it.each([
    ['no name', {}, 'Building name is required'],
    ['a blank name', { name: '   ' }, 'Building name is required'],
    ['a number for a name', { name: 42 }, 'Building name is required'],
    ['a long name', { name: 'x'.repeat(121) }, 'Building name must be at most 120 characters'],
    [
      'a long description',
      { name: 'A', description: 'd'.repeat(2001) },
      'Description must be at most 2000 characters',
    ],
    [
      'the sign-out address as its photo',
      { name: 'A', imageUrl: '/api/logout' },
      'Image URL must be a picture uploaded to Classroom Monitor (a path under /objects/uploads/). Upload the image instead of typing an address.',
    ],
  ])('refuses a building with %s: "%s"', async (_label, building, message) => {
    const error = await failureOf(send(messages.inventory.createBuilding, building as never));
    expect(error).toMatchObject({ code: ErrorCode.VALIDATION_FAILED, message });
    expect(error.errors?.length).toBeGreaterThan(0);
  });

  it('answers BUILDING_NOT_FOUND for an unknown id and VALIDATION_FAILED for a malformed one', async () => {
    const unknown = randomUUID();
    for (const call of [
      () => send(messages.inventory.getBuilding, { id: unknown }),
      () => send(messages.inventory.updateBuilding, { id: unknown, changes: { name: 'X' } }),
      () => send(messages.inventory.deleteBuilding, { id: unknown }),
    ]) {
      expect(await failureOf(call())).toMatchObject({ code: ErrorCode.BUILDING_NOT_FOUND });
    }
    expect(await failureOf(send(messages.inventory.getBuilding, { id: 'not-an-id' }))).toMatchObject({
      code: ErrorCode.VALIDATION_FAILED,
      errors: [{ path: 'id', message: 'Must be a valid id' }],
    });
  });

  it('deletes a building with its rooms, their equipment and its status history, leaving others alone', async () => {
    const doomed = await make.building();
    const kept = await make.building({ name: 'Kept' });
    const room = await make.room(doomed.id);
    await make.equipment(room.id, { ipAddress: '127.0.0.1' });
    await make.room(doomed.id, { name: '102' });
    const keptRoom = await make.room(kept.id);
    await make.equipment(keptRoom.id);

    await expect(send(messages.inventory.deleteBuilding, { id: doomed.id })).resolves.toEqual({
      deleted: true,
    });

    const [counts] = await sql(
      inventory.sut,
      `SELECT (SELECT count(*)::int FROM inv.rooms) AS rooms, (SELECT count(*)::int FROM inv.equipment) AS equipment,
              (SELECT count(*)::int FROM inv.status_spans) AS history,
              (SELECT count(*)::int FROM inv.equipment_state) AS states`,
    );
    expect(counts).toEqual({ rooms: 1, equipment: 1, history: 1, states: 1 });
    expect(await failureOf(send(messages.inventory.getRoom, { id: room.id }))).toMatchObject({
      code: ErrorCode.ROOM_NOT_FOUND,
    });
  });
});
