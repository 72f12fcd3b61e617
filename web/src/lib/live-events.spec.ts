import { type Equipment } from '@cm/contracts';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { COALESCE_MS, LiveCache, roomCheckKey } from './live-events';

const buildingId = '00000000-0000-4000-8000-000000000001';
const roomId = '00000000-0000-4000-8000-000000000002';
const equipmentId = '00000000-0000-4000-8000-000000000003';

const projector: Equipment = {
  id: equipmentId,
  roomId,
  name: 'Projector',
  model: null,
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
};

describe(LiveCache.name, () => {
  let queryClient: QueryClient;
  let sut: LiveCache;
  let fetched: string[];

  /** A query on screen: an observer keeps it active, so invalidating it refetches it. */
  const onScreen = (queryKey: string[], data: unknown) => {
    queryClient.setQueryData(queryKey, data);
    const queryFn = () => {
      fetched.push(queryKey.join('/'));
      return data;
    };
    // Fresh until an event says otherwise: only the refetches the events cause are counted.
    new QueryObserver(queryClient, { queryKey, queryFn, staleTime: Infinity }).subscribe(() => undefined);
  };

  beforeEach(() => {
    jest.useFakeTimers();
    queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: 0, retry: false } } });
    sut = new LiveCache(queryClient);
    fetched = [];
  });
  afterEach(() => {
    sut.dispose();
    jest.useRealTimers();
  });

  it("writes a status change into its room's equipment list at once", () => {
    onScreen(['/api/rooms', roomId, 'equipment'], [projector]);
    const change = {
      equipmentId,
      roomId,
      buildingId,
      status: 'inactive',
      lastCheckedAt: '2026-11-24T19:00:00.000Z',
      rttMs: null,
    };
    sut.apply('equipment.status', JSON.stringify({ changes: [change] }));
    expect(queryClient.getQueryData<Equipment[]>(['/api/rooms', roomId, 'equipment'])).toEqual([
      { ...projector, status: 'inactive', lastCheckedAt: '2026-11-24T19:00:00.000Z', lastRttMs: null },
    ]);
  });

  it("refetches an open equipment's history when its status changes, and no other equipment's", async () => {
    const other = '00000000-0000-4000-8000-000000000004';
    onScreen(['/api/equipment', equipmentId, 'history', 'from=a&to=b'], { spans: [] });
    onScreen(['/api/equipment', other, 'history', 'from=a&to=b'], { spans: [] });
    const change = { equipmentId, roomId, buildingId, status: 'inactive', lastCheckedAt: null, rttMs: null };
    sut.apply('equipment.status', JSON.stringify({ changes: [change] }));
    await jest.advanceTimersByTimeAsync(COALESCE_MS);
    expect(fetched).toEqual([`/api/equipment/${equipmentId}/history/from=a&to=b`]);
  });

  it("fills a room check's pending equipment in when its late results come, and refetches the room's list", async () => {
    const display = '00000000-0000-4000-8000-000000000005';
    onScreen(['/api/rooms', roomId, 'equipment'], [projector]);
    queryClient.setQueryData(roomCheckKey(roomId), {
      roomId,
      checkId: 'check-1',
      checkedAt: '2026-11-24T19:00:00.000Z',
      durationMs: 1700,
      recorded: true,
      equipment: [
        { equipmentId, status: 'active', rttMs: 0.2, probe: null, pending: true },
        { equipmentId: display, status: 'active', rttMs: 0.1, probe: null },
      ],
      message: 'Checked 2 equipment: 2 answered, 1 still being checked',
    });
    const late = {
      equipmentId,
      status: 'active',
      rttMs: 0.2,
      probe: { type: 'pjlink', outcome: 'answered' },
    };
    // Another check's results change nothing of this one.
    sut.apply(
      'room.checked',
      JSON.stringify({ roomId, checkId: 'check-0', equipment: [late], recorded: true }),
    );
    expect(queryClient.getQueryData(roomCheckKey(roomId))).toMatchObject({
      equipment: [{ pending: true }, {}],
    });

    sut.apply(
      'room.checked',
      JSON.stringify({ roomId, checkId: 'check-1', equipment: [late], recorded: true }),
    );
    expect(queryClient.getQueryData(roomCheckKey(roomId))).toMatchObject({
      equipment: [late, { equipmentId: display }],
      message: 'Checked 2 equipment: 2 answered',
    });
    await jest.advanceTimersByTimeAsync(COALESCE_MS);
    expect(fetched).toContain(`/api/rooms/${roomId}/equipment`);
  });

  it('refetches each list a burst of events touches once, after the burst', async () => {
    onScreen(['/api/buildings', buildingId, 'rooms'], []);
    onScreen(['/api/problems'], { deviceCount: 0, roomCount: 0, buildings: [] });
    onScreen(['/api/buildings'], []);
    for (let i = 0; i < 20; i++) {
      const change = {
        equipmentId,
        roomId,
        buildingId,
        status: i % 2 ? 'active' : 'inactive',
        lastCheckedAt: null,
        rttMs: null,
      };
      sut.apply('equipment.status', JSON.stringify({ changes: [change] }));
    }
    expect(fetched).toEqual([]);
    await jest.advanceTimersByTimeAsync(COALESCE_MS);
    expect(fetched.sort()).toEqual(
      [`/api/buildings/${buildingId}/rooms`, '/api/buildings', '/api/problems'].sort(),
    );
  });

  it('refetches the lists of a changed record and its parents', async () => {
    onScreen(['/api/rooms', roomId, 'equipment'], [projector]);
    onScreen(['/api/buildings', buildingId, 'rooms'], []);
    onScreen(['/api/buildings', '00000000-0000-4000-8000-000000000009', 'rooms'], []);
    sut.apply(
      'inventory.changed',
      JSON.stringify({ kind: 'equipment', action: 'deleted', id: equipmentId, roomId, buildingId }),
    );
    await jest.advanceTimersByTimeAsync(COALESCE_MS);
    expect(fetched.sort()).toEqual(
      [`/api/buildings/${buildingId}/rooms`, `/api/rooms/${roomId}/equipment`].sort(),
    );
  });

  it("refetches the room's windows, the report and open timelines when a maintenance window changes", async () => {
    const windowId = '00000000-0000-4000-8000-000000000005';
    onScreen(['/api/maintenance-windows', `roomId=${roomId}&from=x`], []);
    onScreen(['/api/equipment', equipmentId, 'history', 'from=a&to=b'], { spans: [] });
    onScreen(['/api/reports/uptime'], { items: [] });
    onScreen(['/api/rooms', roomId, 'equipment'], [projector]);
    onScreen(['/api/buildings'], []);
    sut.apply(
      'inventory.changed',
      JSON.stringify({ kind: 'maintenanceWindow', action: 'created', id: windowId, roomId, buildingId }),
    );
    await jest.advanceTimersByTimeAsync(COALESCE_MS);
    // The equipment and buildings lists show nothing a window changes.
    expect(fetched.sort()).toEqual(
      [
        `/api/maintenance-windows/roomId=${roomId}&from=x`,
        `/api/equipment/${equipmentId}/history/from=a&to=b`,
        '/api/reports/uptime',
      ].sort(),
    );
  });

  it("refetches the room's open alert, and nothing else, when an alert opens, changes or closes", async () => {
    onScreen(['/api/alerts/open', `roomId=${roomId}`], []);
    onScreen(['/api/maintenance-windows', `roomId=${roomId}&from=x`], []);
    onScreen(['/api/rooms', roomId, 'equipment'], [projector]);
    sut.apply(
      'inventory.changed',
      JSON.stringify({ kind: 'alert', action: 'updated', id: roomId, roomId, buildingId }),
    );
    await jest.advanceTimersByTimeAsync(COALESCE_MS);
    expect(fetched).toEqual([`/api/alerts/open/roomId=${roomId}`]);
  });

  it('refetches the lists of windows when a place is deleted, which takes its windows with it', async () => {
    onScreen(['/api/maintenance-windows', `roomId=${roomId}&from=x`], []);
    sut.apply(
      'inventory.changed',
      JSON.stringify({ kind: 'equipment', action: 'deleted', id: equipmentId, roomId, buildingId }),
    );
    await jest.advanceTimersByTimeAsync(COALESCE_MS);
    expect(fetched).toContain(`/api/maintenance-windows/roomId=${roomId}&from=x`);
  });

  it('shows the monitoring state an event carries', () => {
    sut.apply('monitoring.state', JSON.stringify({ isRunning: true, interval: 30000 }));
    expect(queryClient.getQueryData(['/api/monitoring/status'])).toEqual({
      isRunning: true,
      interval: 30000,
    });
  });

  it('ignores an event it does not know or cannot read', () => {
    onScreen(['/api/monitoring/status'], { isRunning: false, interval: 30000 });
    sut.apply('monitoring.state', '{"isRunning":"yes"}');
    sut.apply('monitoring.state', 'not json');
    sut.apply('something.else', '{}');
    expect(queryClient.getQueryData(['/api/monitoring/status'])).toEqual({
      isRunning: false,
      interval: 30000,
    });
  });
});
