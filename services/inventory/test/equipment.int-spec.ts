import { ErrorCode, messages } from '@cm/contracts';
import { randomUUID } from 'node:crypto';
import { equipmentChangeReader, failureOf, inventoryUnderTest, sql } from './support';

describe('inventory equipment', () => {
  const inventory = inventoryUnderTest();
  const { make, send } = inventory;
  let roomId: string;
  const history = (equipmentId: string) =>
    sql(inventory.sut, 'SELECT status FROM inv.status_spans WHERE equipment_id = $1 ORDER BY started_at', [
      equipmentId,
    ]);

  beforeEach(async () => {
    await sql(inventory.sut, 'DELETE FROM inv.buildings');
    const building = await make.building();
    roomId = (await make.room(building.id)).id;
  });

  it('adds equipment from the form (roomId included) and answers it with its id, status active', async () => {
    const created = await send(messages.inventory.createEquipment, {
      roomId,
      equipment: {
        roomId,
        name: 'Projector',
        model: 'PT-1',
        serialNumber: '',
        ipAddress: ' 10.0.0.7 ',
        notes: '',
      },
    });
    expect(created).toEqual({
      id: expect.any(String),
      roomId,
      name: 'Projector',
      model: 'PT-1',
      serialNumber: null,
      ipAddress: '10.0.0.7',
      status: 'active',
      notes: null,
      imageUrl: null,
      type: null,
      upstreamEquipmentId: null,
      version: 1,
      lastCheckedAt: null,
      lastRttMs: null,
      probe: { type: 'icmp', secretsSet: [] },
      health: null,
    });
    await expect(history(created.id)).resolves.toEqual([{ status: 'active' }]);
  });

  it('refuses a body roomId other than the room of the path', async () => {
    const error = await failureOf(
      send(messages.inventory.createEquipment, { roomId, equipment: { roomId: randomUUID(), name: 'X' } }),
    );
    expect(error).toMatchObject({ code: ErrorCode.VALIDATION_FAILED, errors: [{ path: 'roomId' }] });
  });

  it('refuses equipment for an unknown room with ROOM_NOT_FOUND', async () => {
    expect(await failureOf(make.equipment(randomUUID()))).toMatchObject({ code: ErrorCode.ROOM_NOT_FOUND });
  });

  it.each([
    ['no name', { name: '' }, 'Equipment name is required'],
    [
      'an unknown status',
      { status: 'online' },
      'Status must be one of: active, inactive, maintenance, partial',
    ],
    ['a host name', { ipAddress: 'projector.local' }, 'IP address must be one IPv4 address'],
    ['an address out of range', { ipAddress: '10.0.0.256' }, 'IP address must be one IPv4 address'],
    ['a range ending past 255', { ipAddress: '10.0.0.70-256' }, 'at most 255'],
    ['a range ending below its start', { ipAddress: '10.0.0.70-69' }, 'must not be below its start (70)'],
    ['a long model', { model: 'm'.repeat(121) }, 'Model must be at most 120 characters'],
    [
      'a long serial number',
      { serialNumber: 's'.repeat(121) },
      'Serial number must be at most 120 characters',
    ],
    ['long notes', { notes: 'n'.repeat(4001) }, 'Notes must be at most 4000 characters'],
  ])('refuses equipment with %s', async (_label, change, message) => {
    const error = await failureOf(make.equipment(roomId, change));
    expect(error.code).toBe(ErrorCode.VALIDATION_FAILED);
    expect(error.message).toContain(message);
  });

  it.each(['', '10.1.1.20', '10.1.1.70-73', '10.1.1.9-9', '10.1.1.1-64'])(
    'accepts the address "%s"',
    async (ip) => {
      await expect(make.equipment(roomId, { ipAddress: ip })).resolves.toMatchObject({
        ipAddress: ip || null,
      });
    },
  );

  it("lists a room's equipment by name; an unknown room is ROOM_NOT_FOUND", async () => {
    const b = await make.equipment(roomId, { name: 'b-screen' });
    const a = await make.equipment(roomId, { name: 'A-mic' });
    await expect(send(messages.inventory.listEquipment, { roomId })).resolves.toEqual([a, b]);
    expect(await failureOf(send(messages.inventory.listEquipment, { roomId: randomUUID() }))).toMatchObject({
      code: ErrorCode.ROOM_NOT_FOUND,
    });
  });

  it('answers one piece of equipment as the list does; an unknown id is EQUIPMENT_NOT_FOUND', async () => {
    const made = await make.equipment(roomId, { name: 'Lectern PC' });
    const listed = (await send(messages.inventory.listEquipment, { roomId })).find((e) => e.id === made.id);
    await expect(send(messages.inventory.getEquipment, { id: made.id })).resolves.toEqual(listed);
    expect(await failureOf(send(messages.inventory.getEquipment, { id: randomUUID() }))).toMatchObject({
      code: ErrorCode.EQUIPMENT_NOT_FOUND,
    });
  });

  it('updates what the edit form sends and keeps what it leaves out (photo, type)', async () => {
    const e = await make.equipment(roomId, {
      imageUrl: '/objects/uploads/3c4d5e6f-7a8b-4c9d-8e0f-2a3b4c5d6e7f',
      type: 'Projector',
      notes: 'old',
    });
    const updated = await send(messages.inventory.updateEquipment, {
      id: e.id,
      changes: { roomId, name: 'Projector 2', model: '', notes: 'new', status: 'active' },
    });
    expect(updated).toEqual({ ...e, name: 'Projector 2', model: null, notes: 'new', version: 2 });
    // The status did not change: nothing more in the history.
    await expect(history(e.id)).resolves.toHaveLength(1);
  });

  it('records a manual status change in the history', async () => {
    const e = await make.equipment(roomId);
    await send(messages.inventory.updateEquipment, {
      id: e.id,
      changes: { name: e.name, status: 'maintenance' },
    });
    await send(messages.inventory.updateEquipment, {
      id: e.id,
      changes: { name: e.name, status: 'partial' },
    });
    await expect(history(e.id)).resolves.toEqual([
      { status: 'active' },
      { status: 'maintenance' },
      { status: 'partial' },
    ]);
  });

  it('moves equipment to another room, and refuses an unknown one', async () => {
    const e = await make.equipment(roomId);
    const other = await make.room((await make.building({ name: 'Other' })).id);
    await expect(
      send(messages.inventory.updateEquipment, { id: e.id, changes: { name: e.name, roomId: other.id } }),
    ).resolves.toMatchObject({ roomId: other.id });
    expect(
      await failureOf(
        send(messages.inventory.updateEquipment, {
          id: e.id,
          changes: { name: e.name, roomId: randomUUID() },
        }),
      ),
    ).toMatchObject({ code: ErrorCode.ROOM_NOT_FOUND });
  });

  it('answers EQUIPMENT_NOT_FOUND for unknown equipment, and requires a name on update', async () => {
    const id = randomUUID();
    expect(
      await failureOf(send(messages.inventory.updateEquipment, { id, changes: { name: 'X' } })),
    ).toMatchObject({ code: ErrorCode.EQUIPMENT_NOT_FOUND });
    expect(await failureOf(send(messages.inventory.deleteEquipment, { id }))).toMatchObject({
      code: ErrorCode.EQUIPMENT_NOT_FOUND,
    });
    expect(
      await failureOf(
        send(messages.inventory.updateEquipment, { id, changes: { status: 'active' } as never }),
      ),
    ).toMatchObject({ code: ErrorCode.VALIDATION_FAILED, message: 'Equipment name is required' });
  });

  it('deletes equipment', async () => {
    const e = await make.equipment(roomId);
    await send(messages.inventory.deleteEquipment, { id: e.id });
    await expect(send(messages.inventory.listEquipment, { roomId })).resolves.toEqual([]);
  });

  it('pages the monitor through every equipment with an address, by id', async () => {
    const addressed = await Promise.all(
      ['10.0.0.1', '10.0.0.2', '10.0.0.3-5', '10.0.0.6', '10.0.0.7'].map((ip) =>
        make.equipment(roomId, { ipAddress: ip }),
      ),
    );
    await make.equipment(roomId, { ipAddress: '' });
    const seen: string[] = [];
    let after: string | undefined;
    let pages = 0;
    do {
      const page = await send(messages.inventory.listTargets, { after, limit: 2 });
      seen.push(...page.items.map((t) => t.ipAddress));
      after = page.nextCursor ?? undefined;
      pages++;
    } while (after);
    expect(seen.sort()).toEqual(addressed.map((e) => e.ipAddress).sort());
    expect(pages).toBe(3);
    expect(await failureOf(send(messages.inventory.listTargets, { limit: 5000 }))).toMatchObject({
      code: ErrorCode.VALIDATION_FAILED,
    });
  });

  it('publishes created, address changed and deleted events in order, cascades included', async () => {
    const reader = await equipmentChangeReader(inventory.namespace);
    try {
      await reader.next(100, 1500); // skip what earlier tests published
      const e = await make.equipment(roomId, { ipAddress: '10.9.0.1' });
      await make.equipment(roomId, { ipAddress: '' }); // no address: nothing for the monitor
      await send(messages.inventory.updateEquipment, { id: e.id, changes: { name: 'Renamed' } });
      await send(messages.inventory.updateEquipment, {
        id: e.id,
        changes: { name: 'R', ipAddress: '10.9.0.2-4' },
      });
      const cascaded = await make.equipment(roomId, { ipAddress: '10.9.0.9' });
      await send(messages.inventory.deleteEquipment, { id: e.id });
      await send(messages.inventory.deleteRoom, { id: roomId });

      const got = await reader.next(5);
      expect(
        got.map(({ kind, equipmentId, ipAddress, previousIpAddress }) => [
          kind,
          equipmentId,
          ipAddress,
          previousIpAddress,
        ]),
      ).toEqual([
        ['created', e.id, '10.9.0.1', null],
        ['addressChanged', e.id, '10.9.0.2-4', '10.9.0.1'],
        ['created', cascaded.id, '10.9.0.9', null],
        ['deleted', e.id, null, '10.9.0.2-4'],
        ['deleted', cascaded.id, null, '10.9.0.9'],
      ]);
      expect(new Set(got.map((g) => g.eventId)).size).toBe(5);
      await expect(reader.next(1, 1500)).resolves.toEqual([]);
      await expect(
        sql(inventory.sut, 'SELECT count(*)::int AS n FROM inv.equipment_events'),
      ).resolves.toEqual([{ n: 0 }]);
    } finally {
      await reader.close();
    }
  });
});
