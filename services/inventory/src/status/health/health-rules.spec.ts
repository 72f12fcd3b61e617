import { type ProbeReading, type ProbeSettings } from '@cm/contracts';
import { type HealthRecord, judge, usageRates } from './health-rules';

const id = '00000000-0000-4000-8000-000000000001';
const pjlink: ProbeSettings = { type: 'pjlink', lampRatedHours: 3000 };
const at = (minutes: number) => new Date(Date.UTC(2026, 10, 2, 8, minutes)).toISOString();

const reading = (over: Partial<ProbeReading> = {}): ProbeReading => ({
  equipmentId: id,
  probeType: 'pjlink',
  checkedAt: at(0),
  outcome: 'answered',
  findings: [],
  ...over,
});

/** The record a reading leaves, judged from nothing. */
const first = (over: Partial<ProbeReading> = {}, settings: ProbeSettings = pjlink): HealthRecord =>
  judge(reading(over), null, settings).record;

describe(judge.name, () => {
  it('is ok when the device answers and reports nothing wrong', () => {
    expect(first({ power: 'on', lamps: [{ hours: 1200, on: true }] })).toMatchObject({
      state: 'ok',
      reasons: [],
      power: 'on',
    });
  });

  it('warns of a lamp past 90 % of its rated life, in plain words', () => {
    expect(first({ lamps: [{ hours: 2950, on: true }] })).toMatchObject({
      state: 'warning',
      reasons: ['Lamp 1 at 2,950 of 3,000 hours'],
    });
    // Without a rated life there is nothing to judge the hours against.
    expect(first({ lamps: [{ hours: 2950, on: true }] }, { type: 'pjlink' }).state).toBe('ok');
  });

  it("gives the device's own findings as reasons, errors first", () => {
    const record = first({
      findings: [
        { state: 'warning', reason: 'Filter warning' },
        { state: 'error', reason: 'Fan error' },
        { state: 'ok', reason: 'Cover ok' },
      ],
    });
    expect(record).toMatchObject({ state: 'error', reasons: ['Fan error', 'Filter warning'] });
  });

  it('says a refused password, and no answer, as what they are, keeping what was last read', () => {
    const before = first({ lamps: [{ hours: 100, on: true }], model: 'EB-L630U', power: 'on' });
    const refused = judge(reading({ outcome: 'auth-failed', checkedAt: at(5) }), before, pjlink).record;
    expect(refused).toMatchObject({
      state: 'error',
      reasons: ['Wrong PJLink password'],
      authFailed: true,
      model: 'EB-L630U',
      lamps: [{ hours: 100, on: true }],
      power: null,
    });
    const silent = judge(reading({ outcome: 'unreachable', checkedAt: at(10) }), refused, {
      type: 'pjlink',
      port: 4353,
    });
    expect(silent).toMatchObject({
      record: { state: 'error', reasons: ['No answer from PJLink on port 4353'], authFailed: false },
      stateChanged: true,
    });
  });

  it('finds a restart in the uptime going back, or falling short of the time passed', () => {
    const snmp: ProbeSettings = { type: 'snmp', version: '2c', oids: [] };
    const before = first({ probeType: 'snmp', uptimeSeconds: 86_400 }, snmp);
    const steady = judge(
      reading({ probeType: 'snmp', checkedAt: at(5), uptimeSeconds: 86_700 }),
      before,
      snmp,
    );
    expect(steady).toMatchObject({ rebooted: false, record: { rebootedAt: null } });

    const back = judge(
      reading({ probeType: 'snmp', checkedAt: at(10), uptimeSeconds: 120 }),
      steady.record,
      snmp,
    );
    expect(back.rebooted).toBe(true);
    expect(new Date(back.record.rebootedAt!).toISOString()).toBe(new Date(Date.parse(at(8))).toISOString());
    // A restart is an event: the state stays ok, and the time is kept by the readings after it.
    expect(back.record.state).toBe('ok');
    const after = judge(
      reading({ probeType: 'snmp', checkedAt: at(15), uptimeSeconds: 420 }),
      back.record,
      snmp,
    );
    expect(after).toMatchObject({ rebooted: false, record: { rebootedAt: back.record.rebootedAt } });

    // Up 100 s, then an hour later up 1,000 s: it restarted in between, though the count grew.
    const short = judge(
      reading({ probeType: 'snmp', checkedAt: at(75), uptimeSeconds: 1000 }),
      { ...after.record, uptimeSeconds: 100 },
      snmp,
    );
    expect(short.rebooted).toBe(true);
  });

  it('reports a firmware first seen and each change, and a new span only when the state or its gist changes', () => {
    const before = judge(reading({ firmware: '1.02', lamps: [{ hours: 2900, on: true }] }), null, pjlink);
    expect(before.firmwareChange).toEqual({ from: null, to: '1.02' });
    const same = judge(
      reading({ checkedAt: at(5), firmware: '1.02', lamps: [{ hours: 2901, on: true }] }),
      before.record,
      pjlink,
    );
    expect(same).toMatchObject({ firmwareChange: null, stateChanged: false });
    const updated = judge(reading({ checkedAt: at(10), firmware: '1.05' }), same.record, pjlink);
    expect(updated.firmwareChange).toEqual({ from: '1.02', to: '1.05' });
  });

  it('samples lamp hours on the first reading of each day', () => {
    const morning = judge(reading({ lamps: [{ hours: 10, on: true }] }), null, pjlink);
    expect(morning.sampleDay).toBe('2026-11-02');
    expect(
      judge(reading({ checkedAt: at(30), lamps: [{ hours: 10, on: true }] }), morning.record, pjlink)
        .sampleDay,
    ).toBeNull();
  });
});

describe(usageRates.name, () => {
  const day = (n: number) => Date.UTC(2026, 10, 1) + n * 86_400_000;

  it('counts hours per day since the oldest sample of the window', () => {
    const samples = [
      { sampledAt: day(0), lampHours: [100, 50], filterHours: 10 },
      { sampledAt: day(5), lampHours: [150, 50], filterHours: 60 },
    ];
    expect(usageRates(samples, { sampledAt: day(10), lampHours: [200, 50], filterHours: 110 })).toEqual({
      lampRates: [10, 0],
      filterRate: 10,
    });
  });

  it('starts again after a lamp was replaced, and knows nothing within a day', () => {
    const samples = [
      { sampledAt: day(0), lampHours: [2900], filterHours: null },
      { sampledAt: day(2), lampHours: [0], filterHours: null },
    ];
    expect(usageRates(samples, { sampledAt: day(6), lampHours: [40], filterHours: null })).toEqual({
      lampRates: [10],
      filterRate: null,
    });
    expect(usageRates([], { sampledAt: day(6), lampHours: [40], filterHours: null }).lampRates).toEqual([
      null,
    ]);
  });
});
