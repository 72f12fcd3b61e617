import { addressForms, AddressRules, type AllowedTargets, parseAllowedTargets } from './webhook-address';

const listed = (value: string) => parseAllowedTargets(value) as AllowedTargets;

describe(AddressRules.name, () => {
  const sut = new AddressRules(undefined);
  const kindOf = (address: string, host = 'hooks.example.edu') => sut.refusal(host, address)?.kind ?? null;

  it('lets public addresses through, of either family', () => {
    expect(kindOf('93.184.216.34')).toBeNull();
    expect(kindOf('2606:4700::6810:85e5')).toBeNull();
  });

  it('refuses the special ranges, named', () => {
    expect(kindOf('127.0.0.1')).toBe('loopback');
    expect(kindOf('::1')).toBe('loopback');
    expect(kindOf('169.254.169.254')).toBe('link-local');
    expect(kindOf('fe80::1%eth0')).toBe('link-local');
    expect(kindOf('10.1.2.3')).toBe('private-use');
    expect(kindOf('172.31.0.1')).toBe('private-use');
    expect(kindOf('192.168.1.1')).toBe('private-use');
    expect(kindOf('fd12:3456::1')).toBe('private-use');
    expect(kindOf('100.64.0.1')).toBe('shared (carrier-grade NAT)');
    expect(kindOf('0.0.0.0')).toBe('unspecified');
    expect(kindOf('::')).toBe('unspecified');
    expect(kindOf('224.0.0.1')).toBe('multicast');
    expect(kindOf('ff02::1')).toBe('multicast');
    expect(kindOf('255.255.255.255')).toBe('reserved');
  });

  it('judges an IPv6 address that carries an IPv4 one by that IPv4 address', () => {
    expect(kindOf('::ffff:169.254.169.254')).toBe('link-local');
    expect(kindOf('::ffff:a9fe:a9fe')).toBe('link-local');
    expect(kindOf('::ffff:127.0.0.1')).toBe('loopback');
    expect(kindOf('::127.0.0.1')).toBe('loopback');
    expect(kindOf('64:ff9b::169.254.169.254')).toBe('link-local');
    expect(kindOf('64:ff9b::a00:1')).toBe('private-use');
    expect(kindOf('64:ff9b:1::a9fe:a9fe')).toBe('link-local');
    expect(kindOf('2002:7f00:1::')).toBe('loopback');
    expect(kindOf('::ffff:93.184.216.34')).toBeNull();
    expect(kindOf('64:ff9b::93.184.216.34')).toBeNull();
  });

  it('lets through what the allow-list names, by address, network or host name, in any form', () => {
    const allowing = new AddressRules(
      listed('127.0.0.1, 10.20.0.0/16, fd00::/8, receiver.campus.edu, *.av.edu'),
    );
    expect(allowing.refusal('x', '127.0.0.1')).toBeNull();
    expect(allowing.refusal('x', '::ffff:127.0.0.1')).toBeNull();
    expect(allowing.refusal('x', '127.0.0.2')).toEqual({ kind: 'loopback', listable: true });
    expect(allowing.refusal('x', '10.20.5.5')).toBeNull();
    expect(allowing.refusal('x', '10.21.5.5')).toEqual({ kind: 'private-use', listable: true });
    expect(allowing.refusal('x', 'fd12::1')).toBeNull();
    expect(allowing.refusal('receiver.campus.edu', '192.168.7.7')).toBeNull();
    expect(allowing.refusal('RECEIVER.campus.edu', '192.168.7.7')).toBeNull();
    expect(allowing.refusal('hooks.av.edu', '192.168.7.7')).toBeNull();
    expect(allowing.refusal('av.edu', '192.168.7.7')).not.toBeNull();
  });

  it('never lets through an unspecified or multicast address, listed or not', () => {
    const allowing = new AddressRules(listed('0.0.0.0/0, ::/0'));
    expect(allowing.refusal('x', '0.0.0.0')).toEqual({ kind: 'unspecified', listable: false });
    expect(allowing.refusal('x', '::ffff:0.0.0.0')).toEqual({ kind: 'unspecified', listable: false });
    expect(allowing.refusal('x', '239.1.1.1')).toEqual({ kind: 'multicast', listable: false });
  });
});

describe(parseAllowedTargets.name, () => {
  it('reads addresses, networks and host names, bracketed IPv6 too', () => {
    expect(parseAllowedTargets('127.0.0.1,[::1], 10.0.0.0/8 ,Hooks.Campus.edu,*.av.edu')).toMatchObject({
      networks: [
        { address: '127.0.0.1', prefix: 32, family: 'ipv4' },
        { address: '::1', prefix: 128, family: 'ipv6' },
        { address: '10.0.0.0', prefix: 8, family: 'ipv4' },
      ],
      hosts: ['hooks.campus.edu', '*.av.edu'],
    });
  });

  it('names the entry that is wrong', () => {
    expect(parseAllowedTargets('10.0.0.0/33')).toEqual({
      error: '"10.0.0.0/33": a network\'s prefix must be a number from 0 to 32',
    });
    expect(parseAllowedTargets('http://x/')).toMatchObject({ error: expect.stringContaining('"http://x/"') });
    expect(parseAllowedTargets(' , ')).toMatchObject({ error: expect.stringContaining('at least one') });
  });
});

describe(addressForms.name, () => {
  it('is null for what is not an address', () => {
    expect(addressForms('hooks.example.edu')).toBeNull();
  });
});
