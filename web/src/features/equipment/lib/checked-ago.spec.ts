import { checkedAgo, lastCheckedAt } from './checked-ago';

describe(checkedAgo.name, () => {
  const now = Date.parse('2026-11-27T12:00:00Z');

  it('counts seconds within the first minute, then minutes and hours', () => {
    expect(checkedAgo(now - 12_000, now)).toBe('Checked 12 s ago');
    expect(checkedAgo(now, now)).toBe('Checked 0 s ago');
    expect(checkedAgo(now - 5 * 60_000, now)).toBe('Checked 5 min ago');
    expect(checkedAgo(now - 3 * 3_600_000, now)).toBe('Checked 3 h ago');
  });

  it('says when a device was never checked', () => {
    expect(checkedAgo(null, now)).toBe('Not checked yet');
  });
});

describe(lastCheckedAt.name, () => {
  it('takes the later of the last ping and the last probe reading', () => {
    const ping = '2026-11-27T12:00:00.000Z';
    const probe = '2026-11-27T12:00:05.000Z';
    expect(lastCheckedAt({ lastCheckedAt: ping, health: null })).toBe(Date.parse(ping));
    expect(
      lastCheckedAt({ lastCheckedAt: ping, health: { state: 'ok', reasons: [], checkedAt: probe } }),
    ).toBe(Date.parse(probe));
    expect(lastCheckedAt({ lastCheckedAt: null })).toBeNull();
  });
});
