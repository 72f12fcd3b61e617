import { z } from 'zod';

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

/**
 * The one IPv4 grammar of the system (equipment, the monitor's allowed networks): four decimal
 * octets without leading zeros, which some resolvers would read as octal.
 */
const ipv4Schema = z.ipv4();
const ipv4NetworkSchema = z.cidrv4();
// Written like an octet; 256 to 999 still reach the range check, so they get its own message.
const rangeEnd = /^(0|[1-9]\d{0,2})$/;

export const addressFormatMessage =
  'IP address must be one IPv4 address (192.168.1.20) or a range of the last part (192.168.1.20-73)';

export const isIpv4 = (text: string): boolean => ipv4Schema.safeParse(text).success;

/** Equipment's address text → the addresses it stands for, with a message a person can act on. */
export const addressTargetSchema = z
  .string()
  .trim()
  .transform((text, ctx): AddressTarget => {
    if (isIpv4(text)) return { text, addresses: [text] };
    const dash = text.indexOf('-');
    const start = text.slice(0, dash);
    const end = text.slice(dash + 1);
    if (dash < 0 || !isIpv4(start) || !rangeEnd.test(end)) {
      ctx.addIssue({ code: 'custom', message: addressFormatMessage });
      return z.NEVER;
    }
    const prefix = start.slice(0, start.lastIndexOf('.'));
    const first = Number(start.slice(prefix.length + 1));
    const last = Number(end);
    if (last > 255) {
      ctx.addIssue({ code: 'custom', message: 'The end of an address range must be at most 255' });
      return z.NEVER;
    }
    if (last < first) {
      ctx.addIssue({
        code: 'custom',
        message: `The end of an address range must not be below its start (${first})`,
      });
      return z.NEVER;
    }
    const addresses: string[] = [];
    for (let d = first; d <= last; d++) addresses.push(`${prefix}.${d}`);
    return { text, addresses };
  });

/** Parses an address or range; answers an error message a person can act on when it is neither. */
export function parseAddressTarget(input: string): AddressTarget | { error: string } {
  const parsed = addressTargetSchema.safeParse(input);
  return parsed.success ? parsed.data : { error: parsed.error.issues[0].message };
}

export function isAddressError(v: AddressTarget | { error: string }): v is { error: string } {
  return 'error' in v;
}

/** An IPv4 address as an unsigned 32-bit integer, or null when it is not one. */
export function ipv4ToInt(address: string): number | null {
  if (!isIpv4(address)) return null;
  return address.split('.').reduce((n, octet) => ((n << 8) | Number(octet)) >>> 0, 0);
}

/** `10.20.0.0/16` (or one address, a /32) → its address as an integer and its prefix length, or null. */
export function parseIpv4Network(text: string): { address: number; prefix: number } | null {
  if (!text.includes('/')) {
    const address = ipv4ToInt(text);
    return address === null ? null : { address, prefix: 32 };
  }
  if (!ipv4NetworkSchema.safeParse(text).success) return null;
  const [address, prefix] = text.split('/');
  return { address: ipv4ToInt(address)!, prefix: Number(prefix) };
}
