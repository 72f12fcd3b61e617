import { type Episode, severityOf } from './desk-client';

const episode = (over: Partial<Episode>): Episode => ({
  alertId: 'a',
  roomId: 'r',
  place: 'Room 204, Science Hall',
  openedAt: '2026-03-02T08:45:00.000Z',
  closedAt: null,
  monitored: 5,
  devices: [{ id: 'p', name: 'Projector', address: '10.1.2.3', status: 'inactive', since: null }],
  link: null,
  ...over,
});

describe('severityOf', () => {
  it('is medium for some devices down, high for all of them or for a room with a class now or soon', () => {
    expect(severityOf(episode({}))).toBe('medium');
    expect(severityOf(episode({ monitored: 1 }))).toBe('high');
    expect(severityOf(episode({ urgent: true }))).toBe('high');
  });
});
