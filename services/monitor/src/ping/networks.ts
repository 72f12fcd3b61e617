import { ipv4ToInt, parseIpv4Network } from '@cm/contracts';

/** IPv4 networks as [base, mask] pairs of unsigned 32-bit integers. */
export interface Network {
  base: number;
  mask: number;
  text: string;
}

/** `10.0.0.0/8, 127.0.0.0/8` → networks, or a message naming the entry that is wrong. */
export function parseNetworks(list: string): { networks: Network[] } | { error: string } {
  const networks: Network[] = [];
  for (const entry of list
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const network = parseIpv4Network(entry);
    if (!network) return { error: `"${entry}" is not an IPv4 network such as 10.20.0.0/16` };
    const mask = network.prefix === 0 ? 0 : (0xffffffff << (32 - network.prefix)) >>> 0;
    networks.push({ base: (network.address & mask) >>> 0, mask, text: entry });
  }
  if (networks.length === 0) return { error: 'must name at least one network, e.g. 0.0.0.0/0' };
  return { networks };
}

export function isAllowed(address: string, networks: readonly Network[]): boolean {
  const ip = ipv4ToInt(address);
  return ip !== null && networks.some((n) => (ip & n.mask) >>> 0 === n.base);
}
