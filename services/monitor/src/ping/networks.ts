/** IPv4 networks as [base, mask] pairs of unsigned 32-bit integers. */
export interface Network {
  base: number;
  mask: number;
  text: string;
}

const ipv4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

export function ipToInt(address: string): number | null {
  const m = ipv4.exec(address);
  if (!m) return null;
  const parts = m.slice(1).map(Number);
  if (parts.some((p) => p > 255)) return null;
  return ((parts[0] << 24) | (parts[1] << 16) | (parts[2] << 8) | parts[3]) >>> 0;
}

/** `10.0.0.0/8, 127.0.0.0/8` → networks, or a message naming the entry that is wrong. */
export function parseNetworks(list: string): { networks: Network[] } | { error: string } {
  const networks: Network[] = [];
  for (const entry of list
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const [address, bits = '32', extra] = entry.split('/');
    const base = ipToInt(address);
    const prefix = /^\d{1,2}$/.test(bits) ? Number(bits) : NaN;
    if (base === null || extra !== undefined || !(prefix >= 0 && prefix <= 32)) {
      return { error: `"${entry}" is not an IPv4 network such as 10.20.0.0/16` };
    }
    const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
    networks.push({ base: (base & mask) >>> 0, mask, text: entry });
  }
  if (networks.length === 0) return { error: 'must name at least one network, e.g. 0.0.0.0/0' };
  return { networks };
}

export function isAllowed(address: string, networks: readonly Network[]): boolean {
  const ip = ipToInt(address);
  return ip !== null && networks.some((n) => (ip & n.mask) >>> 0 === n.base);
}
