import { messages } from '@cm/contracts';
import { probeReadings, type TestReading } from './probe-readings';
import { inventoryUnderTest, sql } from './support';

const DAY_MS = 86_400_000;

describe('inventory consumables report and fleet view', () => {
  const inventory = inventoryUnderTest();
  const { make, send } = inventory;
  const { publish, recorded } = probeReadings(inventory);
  let roomId: string;

  beforeAll(async () => {
    const building = await make.building({ name: 'Fleet Hall' });
    roomId = (await make.room(building.id, { name: 'F-1' })).id;
  });

  /** Publishes readings and waits until each device's is recorded. */
  const read = async (readings: TestReading[]) => {
    await publish(readings);
    for (const { equipmentId, checkedAt } of readings) await recorded(equipmentId, checkedAt);
  };
  const device = async (name: string, ip: string, probe: object = { type: 'pjlink' }) =>
    (await make.equipment(roomId, { name, ipAddress: ip, probe })).id;

  it('lists each lamp and filter with its rated life, replacement part and the day its use reaches that life', async () => {
    const id = await device('Ceiling projector', '10.0.3.1', {
      type: 'pjlink',
      lampRatedHours: 3000,
      filterRatedHours: 2000,
    });
    const now = Date.now();
    // Ten days ago it had 100 lamp hours and 100 filter hours fewer: ten hours a day.
    await sql(
      inventory.sut,
      `INSERT INTO inv.health_days (equipment_id, day, sampled_at, lamp_hours, filter_hours)
       VALUES ($1, ($2::timestamptz)::date, $2::timestamptz, '{2000}', 500)`,
      [id, new Date(now - 10 * DAY_MS)],
    );
    const checkedAt = new Date(now).toISOString();
    await read([
      {
        equipmentId: id,
        checkedAt,
        lamps: [{ hours: 2100, on: true }],
        filterHours: 600,
        replacementLamp: 'ELPLP95',
        replacementFilter: 'ELPAF60',
      },
    ]);
    const day = (days: number) => new Date(now + days * DAY_MS).toISOString().slice(0, 10);
    const line = {
      equipmentId: id,
      buildingName: 'Fleet Hall',
      roomName: 'F-1',
      equipmentName: 'Ceiling projector',
      model: null,
      hoursPerDay: 10,
      checkedAt,
    };
    const page = await send(messages.inventory.consumables, { limit: 10 });
    expect(page).toEqual({
      items: [
        {
          ...line,
          part: 'Lamp 1',
          hours: 2100,
          ratedHours: 3000,
          replacementModel: 'ELPLP95',
          replaceBy: day(90),
        },
        {
          ...line,
          part: 'Filter',
          hours: 600,
          ratedHours: 2000,
          replacementModel: 'ELPAF60',
          replaceBy: day(140),
        },
      ],
      nextCursor: null,
    });
    expect((await send(messages.inventory.getEquipment, { id })).health?.lampReplaceBy).toBe(day(90));
  });

  it('gives firmware per model, the newest by its numbers, the devices behind it and those restarted today', async () => {
    const [a, b, c, core] = [
      await device('Projector A', '10.0.3.11'),
      await device('Projector B', '10.0.3.12'),
      await device('Projector C', '10.0.3.13'),
      await device('DSP', '10.0.3.14', { type: 'qsys' }),
    ];
    const hourAgo = Date.now() - 3_600_000;
    const t = (minutes: number) => new Date(hourAgo + minutes * 60_000).toISOString();
    const projector = { model: 'EB-L630U' };
    await read([
      { equipmentId: a, checkedAt: t(0), ...projector, firmware: '1.9' },
      { equipmentId: b, checkedAt: t(0), ...projector, firmware: '1.10' },
      { equipmentId: c, checkedAt: t(0), ...projector, firmware: '1.10' },
      {
        equipmentId: core,
        checkedAt: t(0),
        probeType: 'qsys',
        model: 'Core 110f',
        firmware: '9.4',
        uptimeSeconds: 90_000,
      },
    ]);
    await read([{ equipmentId: core, checkedAt: t(10), probeType: 'qsys', uptimeSeconds: 120 }]);
    const place = { roomId, roomName: 'F-1', buildingName: 'Fleet Hall' };
    expect(await send(messages.inventory.fleet)).toEqual({
      models: [
        {
          model: 'Core 110f',
          newestFirmware: '9.4',
          versions: [{ firmware: '9.4', devices: 1 }],
          behind: [],
        },
        {
          model: 'EB-L630U',
          newestFirmware: '1.10',
          versions: [
            { firmware: '1.10', devices: 2 },
            { firmware: '1.9', devices: 1 },
          ],
          behind: [{ equipmentId: a, name: 'Projector A', ...place, model: 'EB-L630U', firmware: '1.9' }],
        },
      ],
      rebooted: [
        {
          equipmentId: core,
          name: 'DSP',
          ...place,
          model: 'Core 110f',
          firmware: '9.4',
          rebootedAt: new Date(Date.parse(t(10)) - 120_000).toISOString(),
        },
      ],
    });
  });
});
