/**
 * What a simulated PJLink projector knows and how it answers one command. The server in
 * pjlink.ts handles the connection (greeting, password, delays); this is the device itself.
 */

export type PjlinkPower = 'standby' | 'on' | 'cooling' | 'warming';
export type PjlinkErrorLevel = 'ok' | 'warning' | 'error';

/** ERST's six digits, in the order the answer gives them. */
export const pjlinkErrorSlots = ['fan', 'lamp', 'temperature', 'cover', 'filter', 'other'] as const;
export type PjlinkErrorSlot = (typeof pjlinkErrorSlots)[number];

export interface PjlinkLamp {
  /** Fractions accumulate from `advanceHours`; answers give whole hours. */
  hours: number;
  on: boolean;
}

/** A simulated projector's state: tests and the demo change it while the simulator runs. */
export interface PjlinkDeviceState {
  power: PjlinkPower;
  /** Empty for a laser or LED light source: LAMP answers ERR1. */
  lamps: PjlinkLamp[];
  errors: Record<PjlinkErrorSlot, PjlinkErrorLevel>;
  /** Class 2 FILT; null when the device has no filter (ERR1). */
  filterHours: number | null;
  /** INPT's two characters: type (1 RGB, 2 video, 3 digital, 4 storage, 5 network) and number. */
  input: string;
  videoMuted: boolean;
  audioMuted: boolean;
  name: string;
  manufacturer: string;
  model: string;
  info: string;
  serial: string;
  firmware: string;
  replacementLamp: string;
  replacementFilter: string;
  /** The projector has failed: LAMP, INPT and AVMT answer ERR4. */
  failure: boolean;
}

/** What a test or the demo sets at the start; the rest is a working class 2 projector. */
export type PjlinkInitialState = Partial<Omit<PjlinkDeviceState, 'errors'>> & {
  errors?: Partial<PjlinkDeviceState['errors']>;
};

export function defaultPjlinkState(initial: PjlinkInitialState = {}): PjlinkDeviceState {
  const power = initial.power ?? 'on';
  return {
    lamps: [{ hours: 1200, on: power === 'on' || power === 'warming' }],
    filterHours: 400,
    input: '31',
    videoMuted: false,
    audioMuted: false,
    name: 'Room projector',
    manufacturer: 'EPSON',
    model: 'EB-L1070U',
    info: '',
    serial: 'X3JK8800123',
    firmware: '1.02',
    replacementLamp: 'ELPLP97',
    replacementFilter: 'ELPAF60',
    failure: false,
    ...initial,
    power,
    errors: {
      fan: 'ok',
      lamp: 'ok',
      temperature: 'ok',
      cover: 'ok',
      filter: 'ok',
      other: 'ok',
      ...initial.errors,
    },
  };
}

const powerDigits: Record<PjlinkPower, string> = { standby: '0', on: '1', cooling: '2', warming: '3' };
const levelDigits: Record<PjlinkErrorLevel, string> = { ok: '0', warning: '1', error: '2' };

/** Questions a projector cannot answer while its lamp warms up or cools down. */
const busyWhileChangingPower = new Set(['ERST', 'LAMP', 'INPT', 'AVMT', 'FILT']);
const failedWhenBroken = new Set(['LAMP', 'INPT', 'AVMT']);
const classTwoCommands = new Set(['FILT', 'SNUM', 'SVER', 'RLMP', 'RFIL']);

/** Sets the power and, as a real projector does, the lamps with it. */
export function setPjlinkPower(state: PjlinkDeviceState, power: PjlinkPower): void {
  state.power = power;
  for (const lamp of state.lamps) lamp.on = power === 'on' || power === 'warming';
}

/**
 * The value part of the answer to `%<digit><command> <parameter>`. Queries are answered from the
 * state; the only instruction taken is POWR 0/1 (other parameters answer ERR2): the monitor only
 * asks, and the demo changes the state directly.
 */
export function answerPjlink(
  state: PjlinkDeviceState,
  deviceClass: 1 | 2,
  digit: string,
  command: string,
  parameter: string,
): string {
  if (digit === '2' && (deviceClass === 1 || !classTwoCommands.has(command))) return 'ERR1';
  if (digit === '1' && classTwoCommands.has(command)) return 'ERR1';
  if (command === 'POWR' && (parameter === '0' || parameter === '1')) return switchPower(state, parameter);
  if (parameter !== '?') return 'ERR2';
  const changingPower = state.power === 'warming' || state.power === 'cooling';
  if (changingPower && busyWhileChangingPower.has(command)) return 'ERR3';
  if (state.failure && failedWhenBroken.has(command)) return 'ERR4';
  return query(state, deviceClass, command);
}

function switchPower(state: PjlinkDeviceState, parameter: string): string {
  if (state.power === 'warming' || state.power === 'cooling') return 'ERR3';
  setPjlinkPower(state, parameter === '1' ? 'on' : 'standby');
  return 'OK';
}

function query(state: PjlinkDeviceState, deviceClass: 1 | 2, command: string): string {
  switch (command) {
    case 'POWR':
      return powerDigits[state.power];
    case 'ERST':
      return pjlinkErrorSlots.map((slot) => levelDigits[state.errors[slot]]).join('');
    case 'LAMP':
      if (state.lamps.length === 0) return 'ERR1';
      return state.lamps.map((l) => `${Math.floor(l.hours)} ${l.on ? 1 : 0}`).join(' ');
    case 'INPT':
      return state.input;
    case 'AVMT':
      if (state.videoMuted && state.audioMuted) return '31';
      if (state.videoMuted) return '11';
      return state.audioMuted ? '21' : '30';
    case 'NAME':
      return state.name;
    case 'INF1':
      return state.manufacturer;
    case 'INF2':
      return state.model;
    case 'INFO':
      return state.info;
    case 'CLSS':
      return String(deviceClass);
    default:
      return queryClassTwo(state, command);
  }
}

function queryClassTwo(state: PjlinkDeviceState, command: string): string {
  switch (command) {
    case 'FILT':
      return state.filterHours === null ? 'ERR1' : String(Math.floor(state.filterHours));
    case 'SNUM':
      return state.serial;
    case 'SVER':
      return state.firmware;
    case 'RLMP':
      return state.replacementLamp;
    case 'RFIL':
      return state.replacementFilter;
    default:
      return 'ERR1';
  }
}

/** Hours at which ageing raises the lamp and filter warnings (and the lamp error). */
export interface PjlinkAgeing {
  lampWarningHours?: number;
  lampErrorHours?: number;
  filterWarningHours?: number;
}

/**
 * `hours` of use: lamps that are on and the filter of a projector that is on gain them, and the
 * ERST lamp and filter slots follow the thresholds, as a projector's own counters raise them.
 */
export function agePjlink(state: PjlinkDeviceState, hours: number, ageing: PjlinkAgeing): void {
  for (const lamp of state.lamps) if (lamp.on) lamp.hours += hours;
  if (state.power === 'on' && state.filterHours !== null) state.filterHours += hours;
  const oldest = Math.max(0, ...state.lamps.map((l) => l.hours));
  if (ageing.lampErrorHours !== undefined && oldest >= ageing.lampErrorHours) state.errors.lamp = 'error';
  else if (ageing.lampWarningHours !== undefined && oldest >= ageing.lampWarningHours)
    state.errors.lamp = 'warning';
  const filter = state.filterHours ?? 0;
  if (ageing.filterWarningHours !== undefined && filter >= ageing.filterWarningHours)
    state.errors.filter = 'warning';
}
