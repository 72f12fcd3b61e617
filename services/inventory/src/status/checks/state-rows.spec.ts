import { type Loaded, liveChanges, spanRowsOf, type StateRow, stateRowsOf, timelineOf } from './state-rows';
import { HOUR_MS, observe } from './timeline';

const T0 = Date.parse('2026-11-20T10:00:00.000Z');

/** A device's state row as a batch reads it: active since T0, checked once at T0, in T0's hour. */
const row = (): StateRow => ({
  id: 'e',
  room_id: 'r',
  status: 'active',
  status_at: new Date(T0),
  last_checked_at: new Date(T0),
  last_rtt_ms: 2,
  last_sweep_id: 's0',
  newest: String(T0),
  span_started_at: new Date(T0),
  span_status: 'active',
  hour: String(T0),
  hour_checks: 1,
  hour_answered: 1,
  hour_pings: 1,
  hour_pings_answered: 1,
  hour_rtt_min: 2,
  hour_rtt_max: 2,
  hour_rtt_sum: 2,
});

/** The row's timeline after a failed check at `at`, and what was loaded before it. */
function afterDown(at: number) {
  const device = timelineOf(row());
  const before: Loaded[] = [{ newest: device.state.recent.at(-1)!, spans: device.spans, status: 'active' }];
  observe(device, { at, status: 'inactive', sweepId: 's1', rttMs: null, pings: 1, pingsAnswered: 0 });
  return { device, before };
}

describe('state rows', () => {
  it('reads a state row as the newest time and the open span', () => {
    expect(timelineOf(row())).toMatchObject({
      state: { equipmentId: 'e', status: 'active', recent: [T0], hour: { hour: T0, checks: 1 } },
      spans: [{ start: T0, end: Infinity, status: 'active' }],
    });
    expect(timelineOf({ ...row(), span_started_at: null, newest: null, hour: null })).toMatchObject({
      state: { recent: [], hour: null },
      spans: [],
    });
  });

  it('writes only the times added, unless the list was read whole', () => {
    const { device, before } = afterDown(T0 + 30_000);
    const [appended] = stateRowsOf([device], before, new Set());
    expect(appended).toMatchObject({
      recent_whole: false,
      recent: [T0 + 30_000],
      span_started_at: new Date(T0 + 30_000).toISOString(),
      span_status: 'inactive',
      hour_checks: 2,
    });
    expect(stateRowsOf([device], before, new Set(['e']))[0]).toMatchObject({
      recent_whole: true,
      recent: [T0, T0 + 30_000],
    });
  });

  it('closes the span that ended and opens the next, and announces the new status', () => {
    const at = T0 + HOUR_MS;
    const { device, before } = afterDown(at);
    expect(spanRowsOf([device], before)).toEqual({
      deleted: [],
      written: [
        {
          equipment_id: 'e',
          started_at: new Date(T0).toISOString(),
          ended_at: new Date(at).toISOString(),
          status: 'active',
        },
        { equipment_id: 'e', started_at: new Date(at).toISOString(), ended_at: null, status: 'inactive' },
      ],
    });
    expect(liveChanges([device], [{ id: 'e', roomId: 'r', buildingId: 'b' }])).toEqual([
      {
        equipmentId: 'e',
        roomId: 'r',
        buildingId: 'b',
        status: 'inactive',
        lastCheckedAt: new Date(at).toISOString(),
        rttMs: null,
      },
    ]);
  });
});
