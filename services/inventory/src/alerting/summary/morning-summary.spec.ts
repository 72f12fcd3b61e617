import { dueDay, summaryMessage, type SummaryRoom } from './morning-summary';

const settings = { time: '07:30', timeZone: 'America/New_York', channelIds: ['c'] };
const room = (name: string, firstStart: string, down: SummaryRoom['down'] = []): SummaryRoom => ({
  room: { id: name, name },
  building: { id: 'b', name: 'Science Hall' },
  firstStart,
  firstTitle: `CLASS ${name}`,
  down,
});

describe('the morning summary', () => {
  it("is due from its time in the settings' zone for two hours, on that local day", () => {
    // 07:29 and 07:30 in New York (EST, UTC-5).
    expect(dueDay(settings, Date.parse('2026-03-02T12:29:00Z'))).toBeNull();
    expect(dueDay(settings, Date.parse('2026-03-02T12:30:00Z'))).toBe('2026-03-02');
    expect(dueDay(settings, Date.parse('2026-03-02T14:29:00Z'))).toBe('2026-03-02');
    expect(dueDay(settings, Date.parse('2026-03-02T14:30:00Z'))).toBeNull();
    // After the clocks go forward (2026-03-08), 07:30 is 11:30 UTC.
    expect(dueDay(settings, Date.parse('2026-03-09T11:30:00Z'))).toBe('2026-03-09');
    expect(dueDay({ ...settings, time: null }, Date.parse('2026-03-02T12:30:00Z'))).toBeNull();
    expect(dueDay({ ...settings, channelIds: [] }, Date.parse('2026-03-02T12:30:00Z'))).toBeNull();
  });

  it('counts the rooms at risk, names the first class before which one is, and says nothing on a day without classes', () => {
    const message = summaryMessage(
      [
        room('101', '2026-03-02T14:00:00.000Z'),
        room('204', '2026-03-02T14:00:00.000Z', [
          { name: 'Projector', address: '10.1.2.3', status: 'inactive' },
          { name: 'Display', address: null, status: 'partial' },
        ]),
        room('Lab A', '2026-03-02T18:00:00.000Z', [{ name: 'Camera', address: null, status: 'inactive' }]),
      ],
      '2026-03-02',
      'America/New_York',
    );
    expect(message).toEqual({
      kind: 'readiness.summary',
      subject: 'Before class, 2026-03-02: 2 rooms at risk before 09:00 classes',
      text: [
        'Before class, 2026-03-02 (America/New_York): 2 rooms at risk before 09:00 classes',
        '09:00 CLASS 204 — Room 204, Science Hall: Projector (10.1.2.3) offline, Display partly answering',
        '13:00 CLASS Lab A — Lab A, Science Hall: Camera offline',
        '1 room with classes today ready.',
      ].join('\n'),
      data: { day: '2026-03-02', atRisk: 2, rooms: 3 },
    });
    expect(summaryMessage([], '2026-03-07', 'UTC')).toBeNull();
  });
});
