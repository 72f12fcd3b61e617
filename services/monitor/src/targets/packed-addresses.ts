/**
 * An equipment's addresses as one number: its first IPv4 address (an unsigned 32-bit integer)
 * times 256, plus the count of addresses less one. Every address text the monitor accepts is one
 * address or a range of the last part within one /24 ("a.b.c.d-N"), so its addresses are always
 * consecutive and at most 256. A number in a Map takes a few bytes where the address strings of a
 * 254-address range took kilobytes, and a sweep formats each address only while it pings it.
 */
export type PackedAddresses = number;

export function packAddresses(first: number, count: number): PackedAddresses {
  if (!Number.isInteger(first) || first < 0 || first > 0xffffffff)
    throw new RangeError(`Not an IPv4 address as an integer: ${first}`);
  if (!Number.isInteger(count) || count < 1 || count > 256 || (first & 0xff) + count > 256)
    throw new RangeError(`${count} addresses from ${formatIpv4(first)} do not fit in its /24`);
  return first * 256 + (count - 1);
}

export function addressCount(packed: PackedAddresses): number {
  return (packed % 256) + 1;
}

/** The `index`th address (from 0), as an unsigned 32-bit integer. */
export function addressAt(packed: PackedAddresses, index: number): number {
  return Math.floor(packed / 256) + index;
}

export function formatIpv4(address: number): string {
  return `${address >>> 24}.${(address >>> 16) & 0xff}.${(address >>> 8) & 0xff}.${address & 0xff}`;
}
