import {
  type Alert,
  type AlertDevice,
  type AlertMessageKind,
  type DeliveryContent,
  type EquipmentStatus,
} from '@cm/contracts';

/** Flapping counts an equipment's alert changes over this much time, and ends after this long without one. */
export const FLAP_WINDOW_MS = 3_600_000;

/** One equipment's side of alerting, as its state row keeps it. */
export interface DeviceAlertState {
  /** Consecutive failed checks (inactive or partial) up to the newest. */
  failedChecks: number;
  /** The open room alert it is in. */
  alertId: string | null;
  /** Its first failed check of the current run. */
  since: number | null;
  /** When it crossed into or out of "down" in the last hour (epoch ms, oldest first). */
  changes: number[];
  /** When it was reported flapping; it stays quiet while this is set. */
  flappingAt: number | null;
}

/** A check (or a person's status change) applied in order to the equipment's status. */
export interface AlertObservation {
  at: number;
  status: EquipmentStatus;
  manual?: boolean;
}

export interface AlertRules {
  afterFailedChecks: number;
  flapThreshold: number;
}

export interface DeviceStep {
  state: DeviceAlertState;
  /** Down and not flapping: belongs in its room's alert unless a maintenance window covers it. */
  wantsAlert: boolean;
  /** Was in an alert and no longer belongs there. */
  leaves: boolean;
  /** Reported flapping by this step. */
  flapped: boolean;
}

const failing = (status: EquipmentStatus) => status === 'inactive' || status === 'partial';

/**
 * Applies an equipment's new observations (oldest first) to its alert state. Down is
 * `afterFailedChecks` failed checks in a row; the first answer ends it. Each crossing is a
 * change; more than `flapThreshold` of them within an hour makes it flapping, reported once, and
 * quiet until an hour passes without a change. A person's status change ends the run: a person
 * took the equipment over.
 */
export function stepDevice(
  prev: DeviceAlertState,
  observations: readonly AlertObservation[],
  rules: AlertRules,
  now: number,
): DeviceStep {
  let { failedChecks, since } = prev;
  const changes = [...prev.changes];
  for (const o of observations) {
    if (o.manual) {
      failedChecks = 0;
      since = null;
    } else if (failing(o.status)) {
      failedChecks++;
      if (failedChecks === 1) since = o.at;
      if (failedChecks === rules.afterFailedChecks) changes.push(o.at);
    } else {
      if (failedChecks >= rules.afterFailedChecks) changes.push(o.at);
      failedChecks = 0;
      since = null;
    }
  }
  const newest = Math.max(now, observations.at(-1)?.at ?? now);
  const recent = changes.filter((t) => t > newest - FLAP_WINDOW_MS);
  const changedNow = recent.length > 0 && recent.at(-1)! > (prev.changes.at(-1) ?? -Infinity);
  let flappingAt = prev.flappingAt;
  let flapped = false;
  // Calm for an hour before these observations (down all along counts as calm): no longer flapping.
  if (flappingAt !== null && (prev.changes.at(-1) ?? -Infinity) <= newest - FLAP_WINDOW_MS) flappingAt = null;
  if (flappingAt === null && changedNow && recent.length > rules.flapThreshold) {
    flappingAt = now;
    flapped = true;
  }
  const wantsAlert = failedChecks >= rules.afterFailedChecks && flappingAt === null;
  const leaves = prev.alertId !== null && !wantsAlert;
  return {
    state: { failedChecks, alertId: leaves ? null : prev.alertId, since, changes: recent, flappingAt },
    wantsAlert,
    leaves,
    flapped,
  };
}

export function sameState(a: DeviceAlertState, b: DeviceAlertState): boolean {
  return (
    a.failedChecks === b.failedChecks &&
    a.alertId === b.alertId &&
    a.since === b.since &&
    a.flappingAt === b.flappingAt &&
    a.changes.length === b.changes.length &&
    a.changes.every((t, i) => t === b.changes[i])
  );
}

/** Down and in no alert yet: joins its room's alert unless a window covers it or its upstream is down. */
export const isCandidate = (step: DeviceStep) => step.wantsAlert && step.state.alertId === null;

/**
 * The rooms whose alerts a batch's steps change, and by room the equipment joining its alert. A
 * candidate covered by a maintenance window waits; one whose upstream device is failing is listed
 * in the upstream's alert (whose room's message is brought up to date), not alerted.
 */
export function alertChanges(
  steps: readonly (DeviceStep & { id: string; roomId: string })[],
  covered: ReadonlySet<string>,
  upstreamRoomOf: ReadonlyMap<string, string>,
): { joiners: Map<string, string[]>; rooms: Set<string> } {
  const joiners = new Map<string, string[]>();
  const rooms = new Set<string>();
  for (const s of steps.filter(isCandidate)) {
    if (covered.has(s.id)) continue;
    const upstreamRoom = upstreamRoomOf.get(s.id);
    if (upstreamRoom) rooms.add(upstreamRoom);
    else joiners.set(s.roomId, [...(joiners.get(s.roomId) ?? []), s.id]);
  }
  for (const room of joiners.keys()) rooms.add(room);
  for (const s of steps) if (s.leaves || s.flapped) rooms.add(s.roomId);
  return { joiners, rooms };
}

/** The devices a message names, and those it lists behind each: what a new message is sent for. */
export const signature = (devices: readonly AlertDevice[]) =>
  devices
    .flatMap((d) => [d.id, ...(d.behind ?? []).map((b) => `${d.id}>${b.id}`)])
    .sort()
    .join();

/** A room with its building, as an alert names it. */
export interface AlertRoom {
  id: string;
  name: string;
  buildingId: string;
  buildingName: string;
}

export function alertView(
  room: AlertRoom,
  alert: { id: string; openedAt: string } | null,
  monitored: number,
  devices: AlertDevice[],
): Alert {
  return {
    id: alert?.id ?? null,
    room: { id: room.id, name: room.name },
    building: { id: room.buildingId, name: room.buildingName },
    openedAt: alert?.openedAt ?? null,
    closedAt: null,
    monitored,
    devices,
  };
}

export type AlertMessage = DeliveryContent & { kind: AlertMessageKind };

/** An alert opened or changed: the room and the count as the mail subject, the devices in the body. */
export function alertMessage(view: Alert, opened: boolean): AlertMessage {
  const text = alertText(view);
  return {
    kind: opened ? 'alert.opened' : 'alert.updated',
    text,
    subject: text.split(' — ')[0],
    alert: view,
  };
}

/** An alert closed at `closedAt`: it names the devices it had, `devices`. */
export function recoveryMessage(
  view: Alert,
  closed: { closedAt: string; allAnswering: boolean },
  devices: AlertDevice[],
): AlertMessage {
  const alert = { ...view, closedAt: closed.closedAt, devices };
  const downMs = Date.parse(closed.closedAt) - Date.parse(view.openedAt!);
  return { kind: 'alert.recovered', text: recoveredText(alert, closed.allAnswering, downMs), alert };
}

/**
 * The building's digest of messages outside teaching hours, of which `message` is a line; `held`,
 * one begun by a room with no more classes that day (later lines may be either).
 */
export function digestMessage(
  room: AlertRoom,
  message: DeliveryContent,
  why: 'quiet' | 'held' = 'quiet',
): DeliveryContent {
  if (why === 'held')
    return {
      kind: 'alert.digest',
      subject: `${room.buildingName}: alerts held for the morning`,
      text: `${room.buildingName}, held for the morning:\n${message.text} (no more classes today)`,
    };
  return {
    kind: 'alert.digest',
    subject: `${room.buildingName}: alerts outside teaching hours`,
    text: `${room.buildingName}, outside teaching hours:\n${message.text}`,
  };
}

/** "Room 204, Science Hall"; a room named by a number is called a room. */
export function placeLabel(alert: Pick<Alert, 'room' | 'building'>): string {
  const room = /^\d/.test(alert.room.name) ? `Room ${alert.room.name}` : alert.room.name;
  return `${room}, ${alert.building.name}`;
}

/** "Projector (10.1.2.3)"; a range that partly answers says so. */
export function deviceLabel(device: Pick<AlertDevice, 'name' | 'address'> & { status?: EquipmentStatus }) {
  if (!device.address) return device.name;
  return `${device.name} (${device.address}${device.status === 'partial' ? ', partly answering' : ''})`;
}

/**
 * "Room 204, Science Hall: 2 of 5 devices offline — Projector (10.1.2.3), Display (10.1.2.4)", and
 * for a device others sit behind, "; unreachable behind Switch: …".
 */
export function alertText(alert: Alert): string {
  const n = alert.monitored;
  const listed = alert.devices.map(deviceLabel).join(', ');
  const behind = alert.devices
    .filter((d) => d.behind?.length)
    .map((d) => `; unreachable behind ${d.name}: ${d.behind!.map(deviceLabel).join(', ')}`)
    .join('');
  return `${placeLabel(alert)}: ${alert.devices.length} of ${n} device${n === 1 ? '' : 's'} offline — ${listed}${behind}`;
}

/** The closing message: how long the room had a device offline, and whether they all answer again. */
export function recoveredText(alert: Alert, allAnswering: boolean, downMs: number): string {
  const what = allAnswering ? 'all devices back online' : 'no devices offline any more';
  return `${placeLabel(alert)}: ${what} after ${duration(downMs)}`;
}

export function flappingText(alert: Alert, device: AlertDevice, changes: number): string {
  return `${placeLabel(alert)}: ${deviceLabel(device)} is flapping: ${changes} changes in the last hour`;
}

/** "45 s", "12 min", "2 h 5 min", "3 d 4 h". */
export function duration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  const min = Math.round(s / 60);
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  if (h < 24) return min % 60 ? `${h} h ${min % 60} min` : `${h} h`;
  const d = Math.floor(h / 24);
  return h % 24 ? `${d} d ${h % 24} h` : `${d} d`;
}
