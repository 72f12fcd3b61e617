import { ipv4ToInt, isAddressError, parseAddressTarget, parseIpv4Network } from './address';

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

  it('takes the edges of the grammar: 0, 255, and a range ending at 255', () => {
    expect(parseAddressTarget('0.0.0.0')).toEqual({ text: '0.0.0.0', addresses: ['0.0.0.0'] });
    expect(parseAddressTarget('255.255.255.255')).toMatchObject({ addresses: ['255.255.255.255'] });
    expect(parseAddressTarget('10.1.1.254-255')).toMatchObject({ addresses: ['10.1.1.254', '10.1.1.255'] });
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
