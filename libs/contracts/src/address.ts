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

/**
 * Blocks that hold no device the monitor may ping, whatever the allowed networks say: an echo
 * request to one of them reaches nobody, a whole group, or every host of a link.
 */
const notHostBlocks = [
  { network: '0.0.0.0/8', what: 'is in 0.0.0.0/8 ("this network"), which no device has' },
  {
    network: '169.254.0.0/16',
    what: 'is link-local (169.254.0.0/16): a device takes one only when DHCP failed, and it cannot be reached from other networks',
  },
  {
    network: '224.0.0.0/4',
    what: 'is a multicast address (224.0.0.0/4), which reaches a group, not one device',
  },
  {
    network: '240.0.0.0/4',
    what: 'is reserved (240.0.0.0/4, which holds the broadcast address 255.255.255.255)',
  },
].map((block) => ({ ...block, networks: parseNetworkList(block.network) }));
const loopback = {
  network: '127.0.0.0/8',
  what: 'is loopback (127.0.0.0/8), this server itself, which only development and test systems monitor',
};
const loopbackBlock = { ...loopback, networks: parseNetworkList(loopback.network) };

/**
 * Why `address` is not a device the monitor may ping, or null when it may be one. Every address
 * is read as part of a /24, as the range grammar does, so .0 and .255 are that subnet's network
 * and broadcast addresses.
 */
export function hostAddressProblem(
  address: string,
  { allowLoopback }: { allowLoopback: boolean },
): string | null {
  const ip = ipv4ToInt(address);
  if (ip === null) return addressFormatMessage;
  const blocks = allowLoopback ? notHostBlocks : [...notHostBlocks, loopbackBlock];
  const block = blocks.find(({ networks }) => isInNetworks(ip, networks));
  if (block) return `${address} ${block.what}: enter the device's own address`;
  const last = ip & 0xff;
  if (last === 0 || last === 255) {
    const subnet = `${address.slice(0, address.lastIndexOf('.'))}.0/24`;
    const role = last === 0 ? 'network' : 'broadcast';
    return `${address} is the ${role} address of ${subnet}: a device's address ends in .1 to .254`;
  }
  return null;
}

/** Equipment's address text → the addresses it stands for, with a message a person can act on. */
export const addressTargetSchema = z
  .string()
  .trim()
  .transform((text, ctx): AddressTarget => {
    const addresses = addressesOf(text);
    // Which networks are allowed is the deployment's to say (see `allowedAddressProblem`).
    const problem =
      typeof addresses === 'string'
        ? addresses
        : addresses.map((a) => hostAddressProblem(a, { allowLoopback: true })).find(Boolean);
    if (problem) {
      ctx.addIssue({ code: 'custom', message: problem });
      return z.NEVER;
    }
    return { text, addresses: addresses as string[] };
  });

/** The addresses an address or range covers, or why the text is neither. */
function addressesOf(text: string): string[] | string {
  if (isIpv4(text)) return [text];
  const dash = text.indexOf('-');
  const start = text.slice(0, dash);
  const end = text.slice(dash + 1);
  if (dash < 0 || !isIpv4(start) || !rangeEnd.test(end)) return addressFormatMessage;
  const prefix = start.slice(0, start.lastIndexOf('.'));
  const first = Number(start.slice(prefix.length + 1));
  const last = Number(end);
  if (last > 255) return 'The end of an address range must be at most 255';
  if (last < first) return `The end of an address range must not be below its start (${first})`;
  const addresses: string[] = [];
  for (let d = first; d <= last; d++) addresses.push(`${prefix}.${d}`);
  return addresses;
}

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

/** An IPv4 network as its base address and mask, unsigned 32-bit integers, and its text. */
export interface Ipv4Network {
  base: number;
  mask: number;
  text: string;
}

/** `10.0.0.0/8, 127.0.0.0/8` → networks, or a message naming the entry that is wrong. */
export function parseNetworks(list: string): { networks: Ipv4Network[] } | { error: string } {
  const networks: Ipv4Network[] = [];
  for (const entry of list
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const network = parseIpv4Network(entry);
    if (!network) return { error: `"${entry}" is not an IPv4 network such as 10.20.0.0/16` };
    const mask = network.prefix === 0 ? 0 : (0xffffffff << (32 - network.prefix)) >>> 0;
    networks.push({ base: (network.address & mask) >>> 0, mask, text: entry });
  }
  if (networks.length === 0) return { error: 'must name at least one network, e.g. 10.0.0.0/8' };
  return { networks };
}

/** A list known to be well formed (this module's own constants). */
function parseNetworkList(list: string): Ipv4Network[] {
  const parsed = parseNetworks(list);
  if ('error' in parsed) throw new Error(parsed.error);
  return parsed.networks;
}

/** Whether an address (text, or as an integer) lies in one of the networks. */
export function isInNetworks(address: string | number, networks: readonly Ipv4Network[]): boolean {
  const ip = typeof address === 'number' ? address : ipv4ToInt(address);
  return ip !== null && networks.some((n) => (ip & n.mask) >>> 0 === n.base);
}

/** The private ranges of RFC 1918, where a campus's devices live. */
export const privateNetworks = '10.0.0.0/8,172.16.0.0/12,192.168.0.0/16';

/**
 * The default of MONITOR_ALLOWED_NETWORKS, read by the monitor (what it pings) and inventory
 * (what it stores): the private ranges, and loopback too where tests and development need
 * something that answers.
 */
export function defaultAllowedNetworks(nodeEnv: string): string {
  return nodeEnv === 'development' || nodeEnv === 'test'
    ? `${privateNetworks},${loopback.network}`
    : privateNetworks;
}

/**
 * Why an equipment address may not be stored where `allowed` are the networks the monitor may
 * ping, or null when it may: every address of it must be a device's, inside those networks.
 */
export function allowedAddressProblem(target: AddressTarget, allowed: readonly Ipv4Network[]): string | null {
  for (const address of target.addresses) {
    const inside = isInNetworks(address, allowed);
    const problem = hostAddressProblem(address, { allowLoopback: inside });
    if (problem) return problem;
    if (!inside) {
      const names = allowed.map((n) => n.text).join(', ');
      return `${address} is outside the networks this system may monitor (${names}): enter an address in one of them, or ask an administrator to add its network to MONITOR_ALLOWED_NETWORKS`;
    }
  }
  return null;
}
