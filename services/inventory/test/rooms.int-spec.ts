import { ErrorCode, type MessageRequest, messages } from '@cm/contracts';
import { randomUUID } from 'node:crypto';
import { failureOf, inventoryUnderTest, sql } from './support';

describe('inventory rooms', () => {
  const inventory = inventoryUnderTest();
  const { make, send } = inventory;
  let buildingId: string;
  const form = {
    name: '101',
    type: 'Computer Lab',
    floor: 'B1',
    capacity: 24,
    roomSize: '30 x 40',
    isAdaAccessible: 0,
  } satisfies MessageRequest<typeof messages.inventory.createRoom>['room'];

  beforeEach(async () => {
    await sql(inventory.sut, 'DELETE FROM inv.buildings');
    buildingId = (await make.building()).id;
  });

  it('creates a room from the form and answers it with its id', async () => {
    const room = await send(messages.inventory.createRoom, { buildingId, room: form });
    expect(room).toEqual({
      id: expect.any(String),
      buildingId,
      ...form,
      imageUrl: null,
      wiringDiagramUrl: null,
      seatingLayoutUrl: null,
      version: 1,
    });
    await expect(send(messages.inventory.getRoom, { id: room.id })).resolves.toEqual(room);
  });

  it('fills the spec defaults: capacity 0, ADA accessible 1, optional text null', async () => {
    const room = await make.room(buildingId, { roomSize: '' });
    expect(room).toMatchObject({ capacity: 0, isAdaAccessible: 1, roomSize: null, imageUrl: null });
  });

  it("lists a building's rooms with their equipment counts", async () => {
    const a = await make.room(buildingId, { name: 'a-room' });
    const b = await make.room(buildingId, { name: 'B-room' });
    await make.equipment(b.id);
    await make.equipment(b.id, { name: 'Screen' });
    const other = await make.building({ name: 'Other' });
    await make.room(other.id);
    const list = await send(messages.inventory.listRooms, { buildingId });
    expect(list).toEqual([
      {
        ...a,
        equipmentCount: 0,
        statusCounts: { active: 0, inactive: 0, partial: 0, maintenance: 0 },
        faults: 0,
      },
      {
        ...b,
        equipmentCount: 2,
        statusCounts: { active: 2, inactive: 0, partial: 0, maintenance: 0 },
        faults: 0,
      },
    ]);
    await expect(send(messages.inventory.listRooms, { buildingId: other.id })).resolves.toHaveLength(1);
  });

  it('answers an empty list for a building without rooms, and BUILDING_NOT_FOUND for an unknown one', async () => {
    await expect(send(messages.inventory.listRooms, { buildingId })).resolves.toEqual([]);
    expect(await failureOf(send(messages.inventory.listRooms, { buildingId: randomUUID() }))).toMatchObject({
      code: ErrorCode.BUILDING_NOT_FOUND,
    });
  });

  it('refuses a room under an unknown building with BUILDING_NOT_FOUND', async () => {
    const error = await failureOf(
      send(messages.inventory.createRoom, { buildingId: randomUUID(), room: form }),
    );
    expect(error).toMatchObject({ code: ErrorCode.BUILDING_NOT_FOUND });
    expect(error.message).toMatch(/^No building with id/);
  });

  it.each([
    ['no name', { name: undefined }, 'Room name is required'],
    ['no type', { type: undefined }, 'Type must be one of: Classroom, Computer Lab, Science Lab'],
    ['an unknown type', { type: 'Gym' }, 'Type must be one of'],
    ['no floor', { floor: ' ' }, 'Floor is required'],
    ['a negative capacity', { capacity: -1 }, 'Capacity must be 0 or more'],
    ['a fractional capacity', { capacity: 1.5 }, 'Capacity must be a whole number'],
    ['a capacity in words', { capacity: 'twenty' }, 'Capacity must be a number'],
    ['ADA accessible 2', { isAdaAccessible: 2 }, 'Must be 0 or 1'],
    ['ADA accessible true', { isAdaAccessible: true }, 'Must be 0 or 1'],
    ['a long room size', { roomSize: 'x'.repeat(121) }, 'Room size must be at most 120 characters'],
    ['a long floor', { floor: '1'.repeat(33) }, 'Floor must be at most 32 characters'],
    [
      'a wiring diagram of another site',
      { wiringDiagramUrl: 'https://evil.example/x.png' },
      'Wiring diagram URL must be a picture uploaded to Classroom Monitor',
    ],
  ])('refuses a room with %s', async (_label, change, message) => {
    const error = await failureOf(
      send(messages.inventory.createRoom, { buildingId, room: { ...form, ...change } as never }),
    );
    expect(error.code).toBe(ErrorCode.VALIDATION_FAILED);
    expect(error.message).toContain(message);
    expect(error.errors?.[0].path).toMatch(/^room\./);
  });

  it('takes a capacity typed as text', async () => {
    await expect(make.room(buildingId, { capacity: '30' })).resolves.toMatchObject({ capacity: 30 });
  });

  it('updates only the attachment a detail-page upload sends', async () => {
    const room = await send(messages.inventory.createRoom, { buildingId, room: form });
    const updated = await send(messages.inventory.updateRoom, {
      id: room.id,
      changes: { wiringDiagramUrl: '/objects/uploads/1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d' },
    });
    expect(updated).toEqual({
      ...room,
      wiringDiagramUrl: '/objects/uploads/1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
      version: 2,
    });
  });

  it('updates from the whole form, and refuses an update that changes nothing', async () => {
    const room = await make.room(buildingId);
    const updated = await send(messages.inventory.updateRoom, {
      id: room.id,
      changes: { ...form, name: '202', imageUrl: '/objects/uploads/2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e' },
    });
    expect(updated).toMatchObject({
      ...form,
      name: '202',
      imageUrl: '/objects/uploads/2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e',
    });
    expect(await failureOf(send(messages.inventory.updateRoom, { id: room.id, changes: {} }))).toMatchObject({
      code: ErrorCode.VALIDATION_FAILED,
      message: 'Send at least one field to change',
    });
    expect(
      await failureOf(send(messages.inventory.updateRoom, { id: room.id, changes: { capacity: -3 } })),
    ).toMatchObject({ code: ErrorCode.VALIDATION_FAILED, message: 'Capacity must be 0 or more' });
  });

  it('answers ROOM_NOT_FOUND for an unknown room and VALIDATION_FAILED for a malformed id', async () => {
    const id = randomUUID();
    for (const call of [
      () => send(messages.inventory.getRoom, { id }),
      () => send(messages.inventory.updateRoom, { id, changes: { name: 'x' } }),
      () => send(messages.inventory.deleteRoom, { id }),
    ]) {
      expect(await failureOf(call())).toMatchObject({ code: ErrorCode.ROOM_NOT_FOUND });
    }
    expect(await failureOf(send(messages.inventory.deleteRoom, { id: '12' }))).toMatchObject({
      code: ErrorCode.VALIDATION_FAILED,
    });
  });

  it('deletes a room with its equipment, leaving the building and its other rooms', async () => {
    const doomed = await make.room(buildingId);
    const kept = await make.room(buildingId, { name: '102' });
    await make.equipment(doomed.id);
    await make.equipment(doomed.id, { name: 'Screen' });
    await make.equipment(kept.id);
    await send(messages.inventory.deleteRoom, { id: doomed.id });
    const [counts] = await sql(
      inventory.sut,
      `SELECT (SELECT count(*)::int FROM inv.rooms) AS rooms, (SELECT count(*)::int FROM inv.equipment) AS equipment`,
    );
    expect(counts).toEqual({ rooms: 1, equipment: 1 });
    await expect(send(messages.inventory.getBuilding, { id: buildingId })).resolves.toMatchObject({
      id: buildingId,
    });
  });
});
