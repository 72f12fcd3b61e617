import { type Alert } from '@cm/contracts';
import {
  alertChanges,
  alertMessage,
  alertText,
  type AlertObservation,
  alertView,
  type DeviceAlertState,
  type DeviceStep,
  digestMessage,
  duration,
  FLAP_WINDOW_MS,
  recoveredText,
  recoveryMessage,
  sameState,
  signature,
  stepDevice,
} from './alert-rules';

const rules = { afterFailedChecks: 2, flapThreshold: 4 };
const fresh = (): DeviceAlertState => ({
  failedChecks: 0,
  alertId: null,
  since: null,
  changes: [],
  flappingAt: null,
});
const down = (at: number): AlertObservation => ({ at, status: 'inactive' });
const up = (at: number): AlertObservation => ({ at, status: 'active' });

/** Feeds checks one batch at a time, as the status consumer does, joining the alert when asked. */
function run(checks: AlertObservation[], state = fresh()) {
  const flaps: number[] = [];
  for (const c of checks) {
    const step = stepDevice(state, [c], rules, c.at);
    state = { ...step.state, alertId: step.wantsAlert ? (step.state.alertId ?? 'alert') : null };
    if (step.flapped) flaps.push(c.at);
  }
  return { state, flaps };
}

describe('stepDevice', () => {
  it('wants an alert only at the configured number of failed checks in a row', () => {
    const one = stepDevice(fresh(), [down(1000)], rules, 1000);
    expect(one).toMatchObject({ wantsAlert: false, state: { failedChecks: 1, since: 1000 } });
    const two = stepDevice(one.state, [{ at: 2000, status: 'partial' }], rules, 2000);
    expect(two).toMatchObject({ wantsAlert: true, state: { failedChecks: 2, since: 1000, changes: [2000] } });
    const broken = stepDevice(one.state, [up(2000)], rules, 2000);
    expect(broken).toMatchObject({ wantsAlert: false, leaves: false, state: { failedChecks: 0 } });
  });

  it('leaves the alert at the first answer, and when a person sets the status', () => {
    const inAlert = { ...fresh(), failedChecks: 3, alertId: 'a', since: 1000, changes: [2000] };
    expect(stepDevice(inAlert, [up(4000)], rules, 4000)).toMatchObject({
      leaves: true,
      state: { alertId: null, failedChecks: 0, changes: [2000, 4000] },
    });
    expect(
      stepDevice(inAlert, [{ at: 4000, status: 'maintenance', manual: true }], rules, 4000),
    ).toMatchObject({ leaves: true, state: { failedChecks: 0, changes: [2000] } });
  });

  it('reports flapping once, at the change past the threshold, then stays quiet until an hour is calm', () => {
    const checks: AlertObservation[] = [];
    let t = 0;
    // Down twice, up once: each cycle is two changes.
    for (let cycle = 0; cycle < 5; cycle++)
      checks.push(down((t += 1000)), down((t += 1000)), up((t += 1000)));
    const { state, flaps } = run(checks);
    expect(flaps).toEqual([checks[7].at]); // the fifth change: the third opening
    expect(state.flappingAt).toBe(checks[7].at);

    // Down again while flapping: no alert.
    const quiet = run([down((t += 1000)), down((t += 1000))], state);
    expect(quiet.state.alertId).toBeNull();
    expect(quiet.flaps).toEqual([]);

    // An hour without a change ends it: the next failure alerts again.
    const later = t + FLAP_WINDOW_MS + 1000;
    const calm = run([up(later), down(later + 1000), down(later + 2000)], quiet.state);
    expect(calm.state).toMatchObject({ flappingAt: null, alertId: 'alert' });
  });

  it('forgets changes older than an hour', () => {
    const old = { ...fresh(), changes: [1000, 2000, 3000, 4000] };
    const step = stepDevice(old, [down(FLAP_WINDOW_MS + 3500)], rules, FLAP_WINDOW_MS + 3500);
    expect(step.state.changes).toEqual([4000]);
  });
});

describe('alert texts', () => {
  const alert: Alert = {
    id: null,
    room: { id: 'r', name: '204' },
    building: { id: 'b', name: 'Science Hall' },
    openedAt: null,
    closedAt: null,
    monitored: 5,
    devices: [
      { id: '1', name: 'Projector', address: '10.1.2.3', status: 'inactive', since: null },
      { id: '2', name: 'Display', address: '10.1.2.4-6', status: 'partial', since: null },
    ],
  };

  it('names the room, the building, the count and each device with its address', () => {
    expect(alertText(alert)).toBe(
      'Room 204, Science Hall: 2 of 5 devices offline — Projector (10.1.2.3), Display (10.1.2.4-6, partly answering)',
    );
    expect(alertText({ ...alert, room: { id: 'r', name: 'Lecture Theatre A' }, monitored: 1 })).toMatch(
      /^Lecture Theatre A, Science Hall: 2 of 1 device offline/,
    );
  });

  it('lists the equipment behind a failing upstream device', () => {
    const sw = {
      id: '9',
      name: 'Switch',
      address: '10.1.2.1',
      status: 'inactive' as const,
      since: null,
      behind: alert.devices.slice(0, 1),
    };
    expect(alertText({ ...alert, devices: [sw] })).toBe(
      'Room 204, Science Hall: 1 of 5 devices offline — Switch (10.1.2.1); unreachable behind Switch: Projector (10.1.2.3)',
    );
  });

  it('says how long the room was down when it recovers', () => {
    expect(recoveredText(alert, true, 12 * 60_000)).toBe(
      'Room 204, Science Hall: all devices back online after 12 min',
    );
    expect(recoveredText(alert, false, 30_000)).toBe(
      'Room 204, Science Hall: no devices offline any more after 30 s',
    );
    expect([duration(3_900_000), duration(26 * 3_600_000)]).toEqual(['1 h 5 min', '1 d 2 h']);
  });
});

describe('alertChanges', () => {
  const step = (id: string, roomId: string, change: Partial<DeviceStep> = {}) => ({
    id,
    roomId,
    state: fresh(),
    wantsAlert: false,
    leaves: false,
    flapped: false,
    ...change,
  });

  it('joins a down device to its room, unless a window covers it or its upstream is failing', () => {
    const { joiners, rooms } = alertChanges(
      [
        step('a', 'r1', { wantsAlert: true }),
        step('b', 'r1', { wantsAlert: true }),
        step('covered', 'r2', { wantsAlert: true }),
        step('behind', 'r3', { wantsAlert: true }),
        step('in-alert', 'r4', { wantsAlert: true, state: { ...fresh(), alertId: 'x' } }),
      ],
      new Set(['covered']),
      new Map([['behind', 'r5']]),
    );
    expect(joiners).toEqual(new Map([['r1', ['a', 'b']]]));
    // The upstream's room has its message brought up to date.
    expect([...rooms].sort()).toEqual(['r1', 'r5']);
  });

  it('settles the rooms of devices leaving their alert or reported flapping', () => {
    const { joiners, rooms } = alertChanges(
      [step('a', 'r1', { leaves: true }), step('b', 'r2', { flapped: true }), step('c', 'r3')],
      new Set(),
      new Map(),
    );
    expect(joiners.size).toBe(0);
    expect([...rooms].sort()).toEqual(['r1', 'r2']);
  });
});

describe('alert messages', () => {
  const room = { id: 'r', name: '204', buildingId: 'b', buildingName: 'Science Hall' };
  const projector = {
    id: '1',
    name: 'Projector',
    address: '10.1.2.3',
    status: 'inactive' as const,
    since: null,
  };
  const open = { id: 'a', openedAt: '2026-01-05T09:00:00.000Z' };

  it('tells a state that changed from one that did not', () => {
    expect(sameState(fresh(), fresh())).toBe(true);
    expect(sameState(fresh(), { ...fresh(), changes: [1] })).toBe(false);
    expect(sameState({ ...fresh(), changes: [1] }, { ...fresh(), changes: [2] })).toBe(false);
  });

  it('sends a new message only for other devices, or other devices behind them', () => {
    const sw = { ...projector, id: '9', behind: [{ id: '1', name: 'Projector', address: null }] };
    expect(signature([projector, sw])).toBe(signature([sw, projector]));
    expect(signature([sw])).not.toBe(signature([{ ...sw, behind: [] }]));
  });

  it('opens with the room and the count as the subject, and keeps that shape for an update', () => {
    const view = alertView(room, open, 5, [projector]);
    expect(alertMessage(view, true)).toEqual({
      kind: 'alert.opened',
      text: 'Room 204, Science Hall: 1 of 5 devices offline — Projector (10.1.2.3)',
      subject: 'Room 204, Science Hall: 1 of 5 devices offline',
      alert: view,
    });
    expect(alertMessage(view, false).kind).toBe('alert.updated');
  });

  it('closes naming the devices the alert had, after how long it was open', () => {
    const view = alertView(room, open, 5, []);
    const closed = { closedAt: '2026-01-05T09:12:00.000Z', allAnswering: true };
    expect(recoveryMessage(view, closed, [projector])).toEqual({
      kind: 'alert.recovered',
      text: 'Room 204, Science Hall: all devices back online after 12 min',
      alert: { ...view, closedAt: closed.closedAt, devices: [projector] },
    });
  });

  it('gathers messages outside teaching hours under the building', () => {
    expect(digestMessage(room, { kind: 'alert.opened', text: 'line' })).toEqual({
      kind: 'alert.digest',
      subject: 'Science Hall: alerts outside teaching hours',
      text: 'Science Hall, outside teaching hours:\nline',
    });
  });
});
