import { randomUUID } from 'node:crypto';
import { consumablesCsvColumns, events, type Fleet } from '@cm/contracts';
import { JetStreamConnection } from '@cm/platform';
import { eventually, testNatsUrl } from '@cm/platform/testing';
import { parse } from 'csv-parse/sync';
import { fetch, startAuthAndGateway } from './support';

// What the answers hold is inventory's (its health-reports test); here: the routes, their access
// and the CSV as a download.
describe('GET /api/reports/consumables.csv and GET /api/fleet', () => {
  let sut: Awaited<ReturnType<typeof startAuthAndGateway>>;
  let cookie: string;
  let monitor: JetStreamConnection;
  let projectorId: string;

  const api = async <T>(path: string, method = 'GET', body?: unknown) => {
    const res = await fetch(`${sut.base}${path}`, {
      method,
      headers: { cookie, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(res.status).toBeLessThan(300);
    return (await res.json()) as T;
  };

  beforeAll(async () => {
    sut = await startAuthAndGateway({}, { inventory: true });
    cookie = await sut.adminCookie();
    monitor = await JetStreamConnection.connect({
      namespace: sut.namespace,
      servers: testNatsUrl,
      name: 'monitor-test',
      timeoutMs: 5000,
    });
    const building = await api<{ id: string }>('/api/buildings', 'POST', { name: 'Health Hall' });
    const room = await api<{ id: string }>(`/api/buildings/${building.id}/rooms`, 'POST', {
      name: 'H-1',
      type: 'Classroom',
      floor: '1',
    });
    const projector = await api<{ id: string }>(`/api/rooms/${room.id}/equipment`, 'POST', {
      name: 'Projector, ceiling',
      ipAddress: '10.0.4.1',
      probe: { type: 'pjlink', lampRatedHours: 3000 },
    });
    projectorId = projector.id;
    const checkedAt = new Date().toISOString();
    await monitor.publish(
      events.healthProbed,
      {
        batchId: randomUUID(),
        readings: [
          {
            equipmentId: projectorId,
            probeType: 'pjlink',
            checkedAt,
            outcome: 'answered',
            findings: [],
            model: 'EB-L630U',
            firmware: '1.02',
            lamps: [{ hours: 2950, on: true }],
            replacementLamp: 'ELPLP95',
          },
        ],
      },
      { msgId: randomUUID() },
    );
    await eventually(async () => {
      const [device] = await api<{ health: { checkedAt: string } | null }[]>(
        `/api/rooms/${room.id}/equipment`,
      );
      expect(device.health?.checkedAt).toBe(checkedAt);
    });
  });
  afterAll(async () => {
    await monitor?.close();
    await sut?.close();
  });

  it('are for signed-in users only', async () => {
    for (const path of ['/api/reports/consumables.csv', '/api/fleet'])
      expect((await fetch(`${sut.base}${path}`)).status).toBe(401);
  });

  it('downloads every lamp and filter as CSV', async () => {
    const res = await fetch(`${sut.base}/api/reports/consumables.csv`, { headers: { cookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    expect(res.headers.get('content-disposition')).toMatch(
      /attachment; filename="consumables-\d{4}-\d{2}-\d{2}\.csv"/,
    );
    const records = parse(await res.text(), { columns: true }) as Record<string, string>[];
    expect(Object.keys(records[0])).toEqual([...consumablesCsvColumns]);
    expect(records).toEqual([
      expect.objectContaining({
        Building: 'Health Hall',
        Room: 'H-1',
        Equipment: 'Projector, ceiling',
        Model: 'EB-L630U',
        Part: 'Lamp 1',
        Hours: '2950',
        'Rated Hours': '3000',
        'Replacement Part': 'ELPLP95',
        'Hours per Day': '',
      }),
    ]);
  });

  it('answers the fleet view', async () => {
    expect(await api<Fleet>('/api/fleet')).toEqual({
      models: [
        {
          model: 'EB-L630U',
          newestFirmware: '1.02',
          versions: [{ firmware: '1.02', devices: 1 }],
          behind: [],
        },
      ],
      rebooted: [],
    });
  });
});
