/**
 * Equipment addresses: one IPv4 address, or a range "a.b.c.d-N" that covers .d through .N
 * of the same /24 (the spec's "{ip}-73").
 */
export interface AddressTarget {
  /** The text as stored. */
  text: string;
  /** Every address the monitor pings for it, in order. */
  addresses: string[];
}

const octet = '(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const ipv4 = new RegExp(`^${octet}\\.${octet}\\.${octet}\\.${octet}$`);
const range = new RegExp(`^(${octet}\\.${octet}\\.${octet})\\.${octet}-(\\d{1,3})$`);

export const addressFormatMessage =
  'IP address must be one IPv4 address (192.168.1.20) or a range of the last part (192.168.1.20-73)';

/** Parses an address or range; answers an error message a person can act on when it is neither. */
export function parseAddressTarget(input: string): AddressTarget | { error: string } {
  const text = input.trim();
  if (ipv4.test(text)) return { text, addresses: [text] };
  const m = range.exec(text);
  if (!m) return { error: addressFormatMessage };
  const prefix = m[1];
  const first = Number(m[5]);
  const last = Number(m[6]);
  if (last > 255) return { error: 'The end of an address range must be at most 255' };
  if (last < first) return { error: `The end of an address range must not be below its start (${first})` };
  const addresses: string[] = [];
  for (let d = first; d <= last; d++) addresses.push(`${prefix}.${d}`);
  return { text, addresses };
}

export function isAddressError(v: AddressTarget | { error: string }): v is { error: string } {
  return 'error' in v;
}
