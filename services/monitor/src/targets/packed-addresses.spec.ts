import { addressAt, addressCount, formatIpv4, packAddresses } from './packed-addresses';

describe(packAddresses.name, () => {
  const ip = (text: string) => text.split('.').reduce((n, octet) => n * 256 + Number(octet), 0);

  it('keeps one address, or a range of the last part, and gives each address back', () => {
    for (const [first, count] of [
      ['10.20.30.40', 1],
      ['192.168.1.1', 254],
      ['255.255.255.0', 256],
      ['0.0.0.0', 1],
    ] as const) {
      const packed = packAddresses(ip(first), count);
      expect(addressCount(packed)).toBe(count);
      expect(formatIpv4(addressAt(packed, 0))).toBe(first);
      expect(formatIpv4(addressAt(packed, count - 1))).toBe(
        `${first.slice(0, first.lastIndexOf('.'))}.${Number(first.split('.')[3]) + count - 1}`,
      );
    }
  });

  it('refuses what is not an address, and a range that leaves its /24', () => {
    expect(() => packAddresses(-1, 1)).toThrow(RangeError);
    expect(() => packAddresses(2 ** 32, 1)).toThrow(RangeError);
    expect(() => packAddresses(ip('10.0.0.250'), 7)).toThrow(
      '7 addresses from 10.0.0.250 do not fit in its /24',
    );
    expect(() => packAddresses(ip('10.0.0.1'), 0)).toThrow(RangeError);
  });
});
