import {
  type AddressTarget,
  allowedAddressProblem,
  defaultAllowedNetworks,
  hostAddressProblem,
  type Ipv4Network,
  ipv4ToInt,
  isAddressError,
  isInNetworks,
  parseAddressTarget,
  parseIpv4Network,
  parseNetworks,
} from './address';

const networks = (list: string): Ipv4Network[] => {
  const parsed = parseNetworks(list);
  if ('error' in parsed) throw new Error(parsed.error);
  return parsed.networks;
};
const target = (text: string): AddressTarget => {
  const parsed = parseAddressTarget(text);
  if (isAddressError(parsed)) throw new Error(parsed.error);
  return parsed;
};

describe(parseAddressTarget.name, () => {
  it('takes one IPv4 address as it is', () => {
    expect(parseAddressTarget(' 10.4.2.17 ')).toEqual({ text: '10.4.2.17', addresses: ['10.4.2.17'] });
  });

  it('expands a range of the last part, both ends included', () => {
    const sut = parseAddressTarget('192.168.1.70-73');
    expect(sut).toEqual({
      text: '192.168.1.70-73',
      addresses: ['192.168.1.70', '192.168.1.71', '192.168.1.72', '192.168.1.73'],
    });
  });

  it('takes the first and last host of a /24, alone and as a range', () => {
    expect(parseAddressTarget('10.1.1.1')).toEqual({ text: '10.1.1.1', addresses: ['10.1.1.1'] });
    expect(parseAddressTarget('10.1.1.254')).toEqual({ text: '10.1.1.254', addresses: ['10.1.1.254'] });
    expect(target('10.1.1.1-254').addresses).toHaveLength(254);
  });

  it('refuses what is no device, naming what it is', () => {
    expect(parseAddressTarget('0.0.0.0')).toEqual({ error: expect.stringContaining('0.0.0.0/8') });
    expect(parseAddressTarget('255.255.255.255')).toEqual({
      error: expect.stringContaining('255.255.255.255'),
    });
    expect(parseAddressTarget('10.1.1.254-255')).toEqual({
      error: "10.1.1.255 is the broadcast address of 10.1.1.0/24: a device's address ends in .1 to .254",
    });
    expect(parseAddressTarget('10.1.1.0-3')).toEqual({
      error: "10.1.1.0 is the network address of 10.1.1.0/24: a device's address ends in .1 to .254",
    });
  });

  it('accepts a one-address range', () => {
    expect(parseAddressTarget('127.0.0.5-5')).toEqual({ text: '127.0.0.5-5', addresses: ['127.0.0.5'] });
  });

  it.each([
    ['256.1.1.1', 'one IPv4 address'],
    ['10.0.0', 'one IPv4 address'],
    ['projector.local', 'one IPv4 address'],
    ['10.0.0.9-3', 'must not be below its start (9)'],
    ['10.0.0.9-256', 'at most 255'],
    ['10.0.0.1-10.0.0.5', 'one IPv4 address'],
    // Leading zeros read as octal in some resolvers: 010.0.0.1 could ping 8.0.0.1.
    ['010.0.0.1', 'one IPv4 address'],
    ['10.0.0.01', 'one IPv4 address'],
    ['10.0.0.5-07', 'one IPv4 address'],
    ['10.0.0.5-1000', 'one IPv4 address'],
    ['10.0.0.5 - 7', 'one IPv4 address'],
    ['10.0 .0.5', 'one IPv4 address'],
    ['10.0.0.256', 'one IPv4 address'],
    ['10.0.0.256-257', 'one IPv4 address'],
    ['10.0.0.0/24', 'one IPv4 address'],
    ['', 'one IPv4 address'],
  ])('refuses %s with a message saying what is wrong', (input, fragment) => {
    const sut = parseAddressTarget(input);
    expect(isAddressError(sut)).toBe(true);
    expect((sut as { error: string }).error).toContain(fragment);
  });
});

describe(parseIpv4Network.name, () => {
  it('reads a CIDR block or one address as a /32', () => {
    expect(parseIpv4Network('10.20.0.0/16')).toEqual({ address: ipv4ToInt('10.20.0.0'), prefix: 16 });
    expect(parseIpv4Network('198.18.4.1')).toEqual({ address: 0xc6120401, prefix: 32 });
    expect(parseIpv4Network('0.0.0.0/0')).toEqual({ address: 0, prefix: 0 });
  });

  it.each(['10.0.0.0/33', '10.0.0.0/08', '010.0.0.0/8', '10.0.0/8', '10.0.0.0/8/1', '10.0.0.0/', 'net'])(
    'refuses %p',
    (text) => {
      expect(parseIpv4Network(text)).toBeNull();
    },
  );
});

describe(hostAddressProblem.name, () => {
  const host = (address: string, allowLoopback = false) => hostAddressProblem(address, { allowLoopback });

  it.each([
    ['0.0.0.0', '"this network"'],
    ['0.255.255.254', '"this network"'],
    ['169.254.0.1', 'link-local'],
    ['169.254.169.254', 'link-local'],
    ['169.254.255.254', 'link-local'],
    ['224.0.0.1', 'multicast'],
    ['224.0.0.5', 'multicast'],
    ['239.255.255.254', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['254.255.255.254', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.20.30.0', 'network address of 10.20.30.0/24'],
    ['10.20.30.255', 'broadcast address of 10.20.30.0/24'],
    ['192.168.1.0', 'network address'],
    ['172.31.255.255', 'broadcast address'],
  ])('refuses %s: %s', (address, fragment) => {
    expect(host(address)).toContain(fragment);
    expect(host(address)).toMatch(
      /^\S+ is .*: (enter the device's own address|a device's address ends in \.1 to \.254)$/,
    );
  });

  it.each([
    '1.0.0.1',
    '10.0.0.1',
    '10.255.255.254',
    '169.253.255.254',
    '169.255.0.1',
    '172.16.0.1',
    '192.168.1.254',
    '223.255.255.254',
    '8.8.8.8',
  ])('takes %s, a unicast host address', (address) => {
    expect(host(address)).toBeNull();
  });

  it('takes loopback only when it is allowed', () => {
    expect(host('127.0.0.1', true)).toBeNull();
    expect(host('127.0.0.1', false)).toContain('only development and test systems');
  });
});

describe(parseNetworks.name, () => {
  it('reads a comma-separated list of CIDR blocks and single addresses', () => {
    const sut = networks(' 127.0.0.0/8, 198.18.4.1 ,10.1.2.3/16');
    expect(isInNetworks('127.200.3.4', sut)).toBe(true);
    expect(isInNetworks('198.18.4.1', sut)).toBe(true);
    expect(isInNetworks('198.18.4.2', sut)).toBe(false);
    expect(isInNetworks('10.1.255.9', sut)).toBe(true);
    expect(isInNetworks('10.2.0.1', sut)).toBe(false);
    expect(isInNetworks('010.1.0.1', sut)).toBe(false);
  });

  it('takes every address with 0.0.0.0/0', () => {
    expect(isInNetworks('203.0.113.9', networks('0.0.0.0/0'))).toBe(true);
  });

  it.each(['', '10.0.0.0/33', '10.0.0/8', '300.1.1.1', '10.0.0.0/8/1', 'net', '010.0.0.0/8', '10.0.0.0/08'])(
    'refuses %p with a hint',
    (list) => {
      expect(parseNetworks(list)).toEqual({ error: expect.stringMatching(/network/) });
    },
  );
});

describe(defaultAllowedNetworks.name, () => {
  it('is the private ranges, with loopback only in development and tests', () => {
    expect(defaultAllowedNetworks('production')).toBe('10.0.0.0/8,172.16.0.0/12,192.168.0.0/16');
    for (const env of ['development', 'test'])
      expect(defaultAllowedNetworks(env)).toBe('10.0.0.0/8,172.16.0.0/12,192.168.0.0/16,127.0.0.0/8');
  });
});

describe(allowedAddressProblem.name, () => {
  const campus = networks(defaultAllowedNetworks('production'));
  const sut = (text: string, allowed = campus) => allowedAddressProblem(target(text), allowed);

  it('takes addresses and ranges inside the allowed networks, to their edges', () => {
    for (const text of ['10.0.0.1', '10.255.255.254', '172.16.0.1', '172.31.255.254', '192.168.0.1-254'])
      expect([text, sut(text)]).toEqual([text, null]);
  });

  it('refuses an address outside them, naming them', () => {
    expect(sut('8.8.8.8')).toBe(
      '8.8.8.8 is outside the networks this system may monitor (10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16): enter an address in one of them, or ask an administrator to add its network to MONITOR_ALLOWED_NETWORKS',
    );
    expect(sut('172.32.0.1')).toContain('172.32.0.1 is outside');
    expect(sut('172.15.255.254')).toContain('172.15.255.254 is outside');
    expect(sut('1.1.1.1-20')).toContain('1.1.1.1 is outside');
  });

  it('names the first address of a range that is outside', () => {
    expect(sut('10.0.0.250-254', networks('10.0.0.248/30'))).toContain(
      '10.0.0.252 is outside the networks this system may monitor (10.0.0.248/30)',
    );
  });

  it('refuses loopback unless the allowed networks hold it', () => {
    expect(sut('127.0.0.5')).toContain('127.0.0.5 is loopback');
    expect(sut('127.0.0.5', networks(defaultAllowedNetworks('test')))).toBeNull();
  });

  it('refuses what is no device even where every network is allowed', () => {
    const everywhere = networks('0.0.0.0/0');
    expect(allowedAddressProblem({ text: '224.0.0.1', addresses: ['224.0.0.1'] }, everywhere)).toContain(
      'multicast',
    );
    expect(sut('203.0.113.9', everywhere)).toBeNull();
  });
});
