import { type Equipment, messages, namespacedName, streams } from '@cm/contracts';
import { eventually } from '@cm/platform/testing';
import { DeliverPolicy, JSONCodec } from 'nats';
import { ProbeRepository } from '../src/catalogue/equipment/probe.repository';
import { HistoryRetentionService } from '../src/status/checks/history-retention.service';
import { probeReadings } from './probe-readings';
import { inventoryUnderTest, monitorOf, sql } from './support';

/** Minutes before the test began, as ISO text: readings of one device must come in time order. */
const start = Date.now() - 3_600_000;
const at = (minutes: number) => new Date(start + minutes * 60_000).toISOString();

describe('inventory device health from probe readings', () => {
  const inventory = inventoryUnderTest();
  const { make, send } = inventory;
  const { publish, recorded } = probeReadings(inventory);
  let roomId: string;

  beforeAll(async () => {
    roomId = (await make.room((await make.building()).id)).id;
  });

  const projector = (over: object = {}) =>
    make.equipment(roomId, {
      ipAddress: `10.0.1.${Math.floor(Math.random() * 250) + 1}`,
      probe: { type: 'pjlink', lampRatedHours: 3000 },
      ...over,
    }) as Promise<Equipment>;

  it('warns of a lamp near its rated life, with what the projector reported', async () => {
    const { id } = await projector();
    await publish([
      {
        equipmentId: id,
        checkedAt: at(1),
        power: 'on',
        input: 'HDMI 1',
        lamps: [{ hours: 2950, on: true }],
        filterHours: 120,
      },
    ]);
    const { health } = await recorded(id, at(1));
    expect(health).toEqual({
      state: 'warning',
      reasons: ['Lamp 1 at 2,950 of 3,000 hours'],
      power: 'on',
      input: 'HDMI 1',
      lamps: [{ hours: 2950, on: true, ratedHours: 3000 }],
      filterHours: 120,
      checkedAt: at(1),
    });
  });

  it('says a wrong password at every reading, and no answer as no answer', async () => {
    const { id } = await projector();
    await publish([{ equipmentId: id, checkedAt: at(1), outcome: 'auth-failed' }]);
    expect((await recorded(id, at(1))).health).toMatchObject({
      state: 'error',
      reasons: ['Wrong PJLink password'],
    });
    await publish([{ equipmentId: id, checkedAt: at(2), outcome: 'auth-failed' }]);
    expect((await recorded(id, at(2))).health).toMatchObject({
      state: 'error',
      reasons: ['Wrong PJLink password'],
    });
    await publish([{ equipmentId: id, checkedAt: at(3), outcome: 'unreachable' }]);
    expect((await recorded(id, at(3))).health).toMatchObject({
      state: 'error',
      reasons: ['No answer from PJLink on port 4352'],
    });
    const spans = await sql(
      inventory.sut,
      'SELECT state, reasons, ended_at IS NULL AS open FROM inv.health_spans WHERE equipment_id = $1 ORDER BY started_at',
      [id],
    );
    expect(spans).toEqual([
      { state: 'error', reasons: ['Wrong PJLink password'], open: false },
      { state: 'error', reasons: ['No answer from PJLink on port 4352'], open: true },
    ]);
  });

  it('finds a restart in the uptime going back', async () => {
    const { id } = await make.equipment(roomId, {
      ipAddress: '10.0.2.1',
      probe: { type: 'snmp', secrets: {} },
    });
    const snmp = { equipmentId: id, probeType: 'snmp' as const };
    await publish([{ ...snmp, checkedAt: at(1), uptimeSeconds: 86_400 }]);
    expect((await recorded(id, at(1))).health?.rebootedAt).toBeUndefined();
    await publish([{ ...snmp, checkedAt: at(6), uptimeSeconds: 60 }]);
    const { health } = await recorded(id, at(6));
    expect(health).toMatchObject({ state: 'ok', rebootedAt: at(5) });
  });

  it('keeps the firmware history, and fills the model and serial number left empty', async () => {
    const { id } = await projector({ serialNumber: 'ASSET-7' });
    const device = { equipmentId: id, model: 'EB-L630U', serial: 'X4PK001', firmware: '1.02' };
    await publish([{ ...device, checkedAt: at(1) }]);
    await recorded(id, at(1));
    await publish([{ ...device, firmware: '1.05', checkedAt: at(2) }]);
    const read = await recorded(id, at(2));
    expect(read).toMatchObject({
      model: 'EB-L630U',
      serialNumber: 'ASSET-7',
      health: { model: 'EB-L630U', serial: 'X4PK001', firmware: '1.05' },
    });
    const history = await sql(
      inventory.sut,
      `SELECT from_version AS "from", to_version AS "to" FROM inv.firmware_history WHERE equipment_id = $1 ORDER BY changed_at`,
      [id],
    );
    expect(history).toEqual([
      { from: null, to: '1.02' },
      { from: '1.02', to: '1.05' },
    ]);
  });

  it('answers equipment with the model and serial number a reading filled only together with that reading', async () => {
    const { id } = await projector();
    const probes = inventory.sut.app.get(ProbeRepository);
    const read = probes.views.bind(probes);
    const views = jest.spyOn(probes, 'views');
    // The reading commits after the answer has read the equipment and before it reads the health.
    views.mockImplementationOnce(async (...args) => {
      await publish([{ equipmentId: id, model: 'EB-L630U', serial: 'X4PK002', checkedAt: at(1) }]);
      await eventually(async () =>
        expect(
          await sql(inventory.sut, 'SELECT 1 FROM inv.equipment_health WHERE equipment_id = $1', [id]),
        ).toHaveLength(1),
      );
      return read(...args);
    });
    try {
      const answer = await send(messages.inventory.getEquipment, { id });
      expect(answer).toMatchObject({ model: null, serialNumber: null, health: null });
    } finally {
      views.mockRestore();
    }
    expect(await recorded(id, at(1))).toMatchObject({
      model: 'EB-L630U',
      serialNumber: 'X4PK002',
      health: { model: 'EB-L630U', serial: 'X4PK002' },
    });
  });

  it('changes nothing for readings delivered again, and drops those of deleted equipment', async () => {
    const { id } = await projector();
    const gone = await projector();
    await send(messages.inventory.deleteEquipment, { id: gone.id });
    const readings = [
      { equipmentId: id, checkedAt: at(1), lamps: [{ hours: 100, on: true }] },
      { equipmentId: id, checkedAt: at(2), outcome: 'unreachable' as const },
      { equipmentId: gone.id, checkedAt: at(2) },
    ];
    await publish(readings);
    await recorded(id, at(2));
    // The same readings again (another message id: a monitor retrying), then a newer one.
    await publish(readings);
    await publish([{ equipmentId: id, checkedAt: at(3), lamps: [{ hours: 101, on: true }] }]);
    expect((await recorded(id, at(3))).health).toMatchObject({
      state: 'ok',
      lamps: [{ hours: 101, on: true }],
    });
    const spans = await sql(
      inventory.sut,
      'SELECT state FROM inv.health_spans WHERE equipment_id = $1 ORDER BY started_at',
      [id],
    );
    expect(spans).toEqual([{ state: 'ok' }, { state: 'error' }, { state: 'ok' }]);
  });

  it('forgets lamp samples older than the forecast needs, and health spans past the retention', async () => {
    const { id } = await projector();
    const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000);
    for (const n of [70, 10])
      await sql(
        inventory.sut,
        'INSERT INTO inv.health_days (equipment_id, day, sampled_at, lamp_hours) VALUES ($1, $2::timestamptz::date, $2::timestamptz, $3)',
        [id, daysAgo(n), [100]],
      );
    await sql(
      inventory.sut,
      `INSERT INTO inv.health_spans (equipment_id, started_at, ended_at, state) VALUES ($1, $2, $3, 'ok'), ($1, $3, NULL, 'error')`,
      [id, daysAgo(500), daysAgo(450)],
    );
    await inventory.sut.app.get(HistoryRetentionService).prune();
    const left = async (table: string) =>
      (
        await sql<{ n: number }>(
          inventory.sut,
          `SELECT count(*)::int AS n FROM inv.${table} WHERE equipment_id = $1`,
          [id],
        )
      )[0].n;
    expect([await left('health_days'), await left('health_spans')]).toEqual([1, 1]);
  });

  it('tells open screens of a change of health state, once, after the commit', async () => {
    const building = await make.building({ name: 'Live health' });
    const { id, roomId: room } = await make.equipment((await make.room(building.id)).id, {
      ipAddress: '10.0.5.1',
      probe: { type: 'pjlink' },
    });
    const js = await monitorOf(inventory.namespace);
    const seen: Record<string, unknown>[] = [];
    const consumer = await js.js.consumers.get(namespacedName(inventory.namespace, streams.live.name), {
      deliver_policy: DeliverPolicy.New,
    });
    const live = await consumer.consume();
    void (async () => {
      for await (const msg of live) seen.push(JSONCodec<Record<string, unknown>>().decode(msg.data));
    })();
    try {
      await publish([{ equipmentId: id, checkedAt: at(1), outcome: 'unreachable' }]);
      await recorded(id, at(1));
      // Still unreachable: no change to announce.
      await publish([{ equipmentId: id, checkedAt: at(2), outcome: 'unreachable' }]);
      await recorded(id, at(2));
      await publish([{ equipmentId: id, checkedAt: at(3) }]);
      await recorded(id, at(3));
      const announced = { kind: 'equipment', action: 'updated', id, roomId: room, buildingId: building.id };
      await eventually(() =>
        expect(seen.filter((e) => e.id === id && e.action === 'updated')).toEqual([announced, announced]),
      );
    } finally {
      live.stop();
      await js.close();
    }
  });

  it('counts the faults of each room and building beside their statuses', async () => {
    const building = await make.building({ name: 'Fault Hall' });
    const [faulty, quiet] = [
      await make.room(building.id, { name: 'F-1' }),
      await make.room(building.id, { name: 'F-2' }),
    ];
    const probed = (room: string, ip: string) =>
      make.equipment(room, { ipAddress: ip, probe: { type: 'pjlink' } }).then((e) => e.id);
    const [a, b, c] = [
      await probed(faulty.id, '10.0.6.1'),
      await probed(faulty.id, '10.0.6.2'),
      await probed(quiet.id, '10.0.6.3'),
    ];
    await publish([
      { equipmentId: a, checkedAt: at(1), findings: [{ state: 'warning', reason: 'Filter warning' }] },
      { equipmentId: b, checkedAt: at(1), outcome: 'auth-failed' },
      { equipmentId: c, checkedAt: at(1) },
    ]);
    for (const id of [a, b, c]) await recorded(id, at(1));
    const rooms = await send(messages.inventory.listRooms, { buildingId: building.id });
    expect(rooms.map((r) => [r.name, r.faults])).toEqual([
      ['F-1', 2],
      ['F-2', 0],
    ]);
    const buildings = await send(messages.inventory.listBuildings);
    expect(buildings.find((x) => x.id === building.id)?.faults).toBe(2);
  });

  it('lists what answers ping but reports a fault apart from what is offline', async () => {
    const building = await make.building({ name: 'Faults Hall' });
    const room = await make.room(building.id, { name: 'FH-1', floor: '2' });
    const probed = (name: string, ip: string, status = 'active') =>
      make.equipment(room.id, { name, ipAddress: ip, status, probe: { type: 'pjlink' } }).then((e) => e.id);
    const [lamp, offline, serviced] = [
      await probed('Lamp projector', '10.0.7.1'),
      await probed('Offline projector', '10.0.7.2', 'inactive'),
      await probed('Serviced projector', '10.0.7.3', 'maintenance'),
    ];
    await publish(
      [lamp, offline, serviced].map((equipmentId) => ({
        equipmentId,
        checkedAt: at(1),
        findings: [{ state: 'warning' as const, reason: 'Lamp warning' }],
      })),
    );
    for (const id of [lamp, offline, serviced]) await recorded(id, at(1));
    const { faults } = await send(messages.inventory.listProblems, {});
    expect(faults?.buildings.find((b) => b.id === building.id)).toEqual({
      id: building.id,
      name: 'Faults Hall',
      rooms: [
        {
          id: room.id,
          name: 'FH-1',
          floor: '2',
          devices: [
            {
              id: lamp,
              name: 'Lamp projector',
              ipAddress: '10.0.7.1',
              state: 'warning',
              reasons: ['Lamp warning'],
              since: at(1),
            },
          ],
        },
      ],
    });
  });

  it("shows the health states and firmware changes on the equipment's timeline", async () => {
    const { id } = await projector();
    await publish([{ equipmentId: id, checkedAt: at(1), firmware: '1.02' }]);
    await recorded(id, at(1));
    await publish([{ equipmentId: id, checkedAt: at(2), outcome: 'auth-failed' }]);
    await recorded(id, at(2));
    await publish([{ equipmentId: id, checkedAt: at(3), firmware: '1.05' }]);
    await recorded(id, at(3));
    const history = await send(messages.inventory.equipmentHistory, { id, from: at(0) });
    expect(history.healthSpans).toEqual([
      { start: at(1), end: at(2), state: 'ok', reasons: [] },
      { start: at(2), end: at(3), state: 'error', reasons: ['Wrong PJLink password'] },
      // The open span ends when the timeline was read.
      { start: at(3), end: expect.any(String), state: 'ok', reasons: [] },
    ]);
    expect(history.firmware).toEqual([
      { at: at(1), from: null, to: '1.02' },
      { at: at(3), from: '1.02', to: '1.05' },
    ]);
  });
});
