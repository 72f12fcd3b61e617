import { ErrorCode, messages, SEARCH_LIMIT } from '@cm/contracts';
import { failureOf, inventoryUnderTest, sql } from './support';

describe('inventory search', () => {
  const inventory = inventoryUnderTest();
  const { make, send } = inventory;
  const search = (q: string) => send(messages.inventory.search, { q });
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    const hall = await make.building({ name: 'Turing Hall', description: 'Next to the Library' });
    const annex = await make.building({ name: 'Annex' });
    const lab = await make.room(hall.id, { name: 'Robotics Lab' });
    const studio = await make.room(annex.id, { name: 'Studio 5' });
    ids.hall = hall.id;
    ids.lab = lab.id;
    ids.projector = (
      await make.equipment(lab.id, {
        name: 'Ceiling Projector',
        model: 'Epson EB-L200F',
        serialNumber: 'X4JK-99812-QZ',
        ipAddress: '10.20.30.40',
        notes: 'Lamp replaced in March',
      })
    ).id;
    await make.equipment(studio.id, { name: 'Mixer', model: 'Yamaha MG10' });
  });

  it('finds equipment by a fragment of its serial number, in any letter case, with its path', async () => {
    const result = await search('jk-998');
    expect(result.equipment).toEqual({
      items: [
        {
          id: ids.projector,
          name: 'Ceiling Projector',
          model: 'Epson EB-L200F',
          serialNumber: 'X4JK-99812-QZ',
          ipAddress: '10.20.30.40',
          status: 'active',
          roomId: ids.lab,
          buildingId: ids.hall,
          path: 'Turing Hall > Robotics Lab',
        },
      ],
      more: false,
    });
    expect(result.buildings.items).toEqual([]);
    expect(result.rooms.items).toEqual([]);
  });

  it('finds equipment by the firmware and the serial number its probe read', async () => {
    await sql(
      inventory.sut,
      `INSERT INTO inv.equipment_health (equipment_id, state, outcome, probe_type, checked_at, state_since, firmware, serial)
       VALUES ($1, 'ok', 'answered', 'pjlink', now(), now(), 'V2.14.7', 'PJ-DEVICE-0042')`,
      [ids.projector],
    );
    for (const q of ['v2.14', 'device-00']) {
      expect((await search(q)).equipment.items.map((e) => e.name)).toEqual(['Ceiling Projector']);
    }
  });

  it('finds equipment by model, address and notes', async () => {
    for (const q of ['EPSON eb', '20.30.4', 'lamp REPLACED']) {
      expect((await search(q)).equipment.items.map((e) => e.name)).toEqual(['Ceiling Projector']);
    }
  });

  it('finds buildings by name or description and rooms by name, each grouped by kind', async () => {
    const byDescription = await search('library');
    expect(byDescription.buildings.items).toEqual([
      { id: ids.hall, name: 'Turing Hall', description: 'Next to the Library' },
    ]);
    const room = await search('botics');
    expect(room.rooms.items).toEqual([
      expect.objectContaining({
        id: ids.lab,
        name: 'Robotics Lab',
        buildingId: ids.hall,
        buildingName: 'Turing Hall',
        path: 'Turing Hall > Robotics Lab',
      }),
    ]);
    expect(room.buildings.items).toEqual([]);
    expect(room.equipment.items).toEqual([]);
  });

  it('takes % and _ as themselves, not as wildcards', async () => {
    expect((await search('%%%')).equipment.items).toEqual([]);
    expect((await search('jk_99812')).equipment.items).toEqual([]);
  });

  it('answers at most 20 of a kind by name, and says there are more', async () => {
    const room = await make.room(ids.hall, { name: 'Store' });
    await sql(
      inventory.sut,
      `INSERT INTO inv.equipment (room_id, name) SELECT $1, 'Speaker ' || lpad(g::text, 2, '0') FROM generate_series(1, 25) g`,
      [room.id],
    );
    const result = await search('speaker');
    expect(result.equipment.more).toBe(true);
    expect(result.equipment.items.map((e) => e.name)).toEqual(
      Array.from({ length: SEARCH_LIMIT }, (_, i) => `Speaker ${String(i + 1).padStart(2, '0')}`),
    );
    expect((await search('speaker 2')).equipment).toMatchObject({ more: false });
  });

  it('refuses text shorter than 3 or longer than 100 characters, or missing, with a 400 that says so', async () => {
    const cases: [unknown, string][] = [
      [{ q: ' ab ' }, 'Search text must be at least 3 characters'],
      [{ q: 'x'.repeat(101) }, 'Search text must be at most 100 characters'],
      [{}, 'Search text is required'],
    ];
    for (const [payload, message] of cases) {
      const error = await failureOf(send(messages.inventory.search, payload as { q: string }));
      expect(error.code).toBe(ErrorCode.VALIDATION_FAILED);
      expect(JSON.stringify(error)).toContain(message);
    }
  });
});
