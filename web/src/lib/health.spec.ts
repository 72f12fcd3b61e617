import { type HealthState, type Problems, rollupStatus } from '@cm/contracts';
import {
  attentionCounts,
  attentionSentence,
  downFor,
  faultChip,
  faultCountChip,
  statusChips,
} from './health';

const counts = (over: object = {}) => ({ active: 0, inactive: 0, partial: 0, maintenance: 0, ...over });

describe('problem wording', () => {
  it('says device and room in the singular when there is one', () => {
    expect(attentionSentence(1, 1)).toBe('1 device needs attention in 1 room');
    expect(attentionSentence(3, 1)).toBe('3 devices need attention in 1 room');
    expect(attentionSentence(5, 2)).toBe('5 devices need attention in 2 rooms');
  });

  it('names the faults among them after the sentence, singular where one', () => {
    expect(attentionSentence(3, 2, 2)).toBe('3 devices need attention in 2 rooms · 2 faults');
    expect(attentionSentence(1, 1, 1)).toBe('1 device needs attention in 1 room · 1 fault');
    expect(attentionSentence(2, 1, 0)).toBe('2 devices need attention in 1 room');
  });

  it('says how long in its two largest units', () => {
    const now = Date.parse('2026-01-10T12:00:00Z');
    expect(downFor('2026-01-10T11:59:30Z', now)).toBe('less than a minute');
    expect(downFor('2026-01-10T11:55:00Z', now)).toBe('5 min');
    expect(downFor('2026-01-10T09:50:00Z', now)).toBe('2 h 10 min');
    expect(downFor('2026-01-07T08:00:00Z', now)).toBe('3 d 4 h');
  });

  it('shows inactive in red and partial in amber, nothing for a healthy room', () => {
    expect(statusChips(counts({ active: 4 }))).toEqual([]);
    expect(statusChips(counts({ active: 1, inactive: 2, partial: 1, maintenance: 1 }))).toEqual([
      { label: '2 inactive', tone: 'danger' },
      { label: '1 partial', tone: 'warning' },
      { label: '1 in maintenance', tone: 'neutral' },
    ]);
  });

  it('reads a room with some devices down as partial, and all down as inactive', () => {
    expect(rollupStatus(counts({ active: 2, inactive: 1 }))).toBe('partial');
    expect(rollupStatus(counts({ active: 2, partial: 1 }))).toBe('partial');
    expect(rollupStatus(counts({ inactive: 2, maintenance: 1 }))).toBe('inactive');
    expect(rollupStatus(counts({ active: 2, maintenance: 1 }))).toBe('active');
    expect(rollupStatus(counts({ maintenance: 1 }))).toBe('empty');
  });
});

describe('faultChip', () => {
  const health = (state: HealthState, ...reasons: string[]) => ({
    health: { state, reasons, checkedAt: '2026-01-10T12:00:00Z' },
  });

  it('shows nothing while every device is well, unread or unknown', () => {
    expect(
      faultChip([health('ok'), health('unknown', 'No answer on port 4352'), {}, { health: null }]),
    ).toBeNull();
  });

  it("names one device's one fault in its own words", () => {
    expect(faultChip([health('ok'), health('warning', 'Filter warning')])).toEqual({
      label: 'Filter warning',
      tone: 'warning',
    });
  });

  it('counts the faulty devices when there are several, red when one is an error', () => {
    expect(faultChip([health('warning', 'Filter warning'), health('error', 'Lamp failed')])).toEqual({
      label: '2 faults',
      tone: 'danger',
    });
    expect(faultChip([health('error', 'Lamp 1 at 3,050 of 3,000 hours and past its rated life')])).toEqual({
      label: '1 fault',
      tone: 'danger',
    });
  });
});

describe('attentionCounts', () => {
  const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
  const since = '2026-01-10T12:00:00Z';
  const down = (room: number, ...devices: number[]) => ({
    id: id(room),
    name: `R${room}`,
    floor: '1',
    devices: devices.map((d) => ({
      id: id(d),
      name: `D${d}`,
      status: 'partial' as const,
      ipAddress: null,
      since,
    })),
  });
  const faulty = (room: number, ...devices: number[]) => ({
    ...down(room),
    devices: devices.map((d) => ({
      id: id(d),
      name: `D${d}`,
      state: 'warning' as const,
      reasons: ['Filter warning'],
      ipAddress: null,
      since,
    })),
  });
  const problems: Problems = {
    deviceCount: 2,
    roomCount: 1,
    buildings: [{ id: id(90), name: 'Hall', rooms: [down(1, 11, 12)] }],
  };

  it("takes the server's counts when nothing is faulty", () => {
    expect(attentionCounts(problems)).toEqual({ devices: 2, rooms: 1, faults: 0 });
    expect(attentionCounts({ ...problems, faults: { deviceCount: 0, buildings: [] } })).toEqual({
      devices: 2,
      rooms: 1,
      faults: 0,
    });
  });

  it('adds the faulty devices and their rooms, a partial device with a fault and its room once', () => {
    const faults = {
      deviceCount: 3,
      buildings: [{ id: id(90), name: 'Hall', rooms: [faulty(1, 12, 13), faulty(2, 21)] }],
    };
    expect(attentionCounts({ ...problems, faults })).toEqual({ devices: 4, rooms: 2, faults: 3 });
  });

  it('counts faults alone when nothing is down', () => {
    const faults = { deviceCount: 1, buildings: [{ id: id(90), name: 'Hall', rooms: [faulty(3, 31)] }] };
    expect(attentionCounts({ deviceCount: 0, roomCount: 0, buildings: [], faults })).toEqual({
      devices: 1,
      rooms: 1,
      faults: 1,
    });
  });
});

describe('faultCountChip', () => {
  it("counts the server's faults in amber, nothing for none or no count", () => {
    expect(faultCountChip(undefined)).toBeNull();
    expect(faultCountChip(0)).toBeNull();
    expect(faultCountChip(1)).toEqual({ label: '1 fault', tone: 'warning' });
    expect(faultCountChip(3)).toEqual({ label: '3 faults', tone: 'warning' });
  });
});
