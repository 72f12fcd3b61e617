import { isAllowed, parseNetworks } from './networks';

describe(parseNetworks.name, () => {
  it('reads a comma-separated list of CIDR blocks and single addresses', () => {
    const parsed = parseNetworks(' 127.0.0.0/8, 198.18.4.1 ,10.1.2.3/16');
    if ('error' in parsed) throw new Error(parsed.error);
    expect(isAllowed('127.200.3.4', parsed.networks)).toBe(true);
    expect(isAllowed('198.18.4.1', parsed.networks)).toBe(true);
    expect(isAllowed('198.18.4.2', parsed.networks)).toBe(false);
    expect(isAllowed('10.1.255.9', parsed.networks)).toBe(true);
    expect(isAllowed('10.2.0.1', parsed.networks)).toBe(false);
    expect(isAllowed('010.1.0.1', parsed.networks)).toBe(false);
  });

  it('allows every address with 0.0.0.0/0', () => {
    const parsed = parseNetworks('0.0.0.0/0');
    if ('error' in parsed) throw new Error(parsed.error);
    expect(isAllowed('203.0.113.9', parsed.networks)).toBe(true);
  });

  it.each(['', '10.0.0.0/33', '10.0.0/8', '300.1.1.1', '10.0.0.0/8/1', 'net', '010.0.0.0/8', '10.0.0.0/08'])(
    'refuses %p with a hint',
    (list) => {
      const parsed = parseNetworks(list);
      expect(parsed).toEqual({ error: expect.stringMatching(/network/) });
    },
  );
});
