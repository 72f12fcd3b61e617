import { randomUUID } from 'node:crypto';
import { type Equipment, events, messages, type ProbeReading } from '@cm/contracts';
import { type JetStreamConnection } from '@cm/platform';
import { eventually } from '@cm/platform/testing';
import { HistoryRetentionService } from '../src/status/checks/history-retention.service';
import { inventoryUnderTest, monitorOf, sql } from './support';

/** Minutes before the test began, as ISO text: readings of one device must come in time order. */
const start = Date.now() - 3_600_000;
const at = (minutes: number) => new Date(start + minutes * 60_000).toISOString();

describe('inventory device health from probe readings', () => {
  const inventory = inventoryUnderTest();
  const { make, send } = inventory;
  let monitor: JetStreamConnection;
  let roomId: string;

  beforeAll(async () => {
    monitor = await monitorOf(inventory.namespace);
    roomId = (await make.room((await make.building()).id)).id;
  });
  afterAll(() => monitor?.close());

  const publish = (
    readings: (Partial<ProbeReading> & Pick<ProbeReading, 'equipmentId' | 'checkedAt'>)[],
    msgId = randomUUID(),
  ) =>
    monitor.publish(
      events.healthProbed,
      {
        batchId: msgId.slice(0, 32),
        readings: readings.map((r) => ({ probeType: 'pjlink', outcome: 'answered', findings: [], ...r })),
      },
      { msgId },
    );
  const equipment = (id: string) => send(messages.inventory.getEquipment, { id });
  /** The equipment once a reading at `checkedAt` is recorded. */
  const recorded = (id: string, checkedAt: string) =>
    eventually(async () => {
      const current = await equipment(id);
      expect(current.health?.checkedAt).toBe(checkedAt);
      return current;
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
});
