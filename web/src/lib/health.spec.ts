import { type HealthState, rollupStatus } from '@cm/contracts';
import { attentionSentence, downFor, faultChip, statusChips } from './health';

const counts = (over: object = {}) => ({ active: 0, inactive: 0, partial: 0, maintenance: 0, ...over });

describe('problem wording', () => {
  it('says device and room in the singular when there is one', () => {
    expect(attentionSentence(1, 1)).toBe('1 device needs attention in 1 room');
    expect(attentionSentence(3, 1)).toBe('3 devices need attention in 1 room');
    expect(attentionSentence(5, 2)).toBe('5 devices need attention in 2 rooms');
  });

  it('says how long in its two largest units', () => {
    const now = Date.parse('2026-01-10T12:00:00Z');
    expect(downFor('2026-01-10T11:59:30Z', now)).toBe('less than a minute');
    expect(downFor('2026-01-10T11:55:00Z', now)).toBe('5 min');
    expect(downFor('2026-01-10T09:50:00Z', now)).toBe('2 h 10 min');
    expect(downFor('2026-01-07T08:00:00Z', now)).toBe('3 d 4 h');
  });

  it('shows offline in red and partial in amber, nothing for a healthy room', () => {
    expect(statusChips(counts({ active: 4 }))).toEqual([]);
    expect(statusChips(counts({ active: 1, inactive: 2, partial: 1, maintenance: 1 }))).toEqual([
      { label: '2 offline', tone: 'danger' },
      { label: '1 partial', tone: 'warning' },
      { label: '1 in maintenance', tone: 'neutral' },
    ]);
  });

  it('reads a room with some devices down as partial, and all down as offline', () => {
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
