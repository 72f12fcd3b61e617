import { BlockList, isIP } from 'node:net';

/**
 * Where a webhook may connect. A webhook URL is typed by a person, and the inventory service sits
 * next to the platform's own ports (its probe ports, NATS, PostgreSQL, a cloud's metadata
 * service), so every address a webhook's host resolves to is judged: addresses on the public
 * internet are fine; the special ranges below are refused unless ALERTS_ALLOWED_TARGETS lists the
 * address (or a network holding it) or the URL's host name. IPv6 forms that carry an IPv4 address
 * (`::ffff:a.b.c.d`, `::a.b.c.d`, NAT64 `64:ff9b::/96` and `64:ff9b:1::/48`, 6to4 `2002::/16`) are
 * judged by that IPv4 address.
 */
const ranges: { network: string; prefix: number; family: 'ipv4' | 'ipv6'; kind: string; never?: true }[] = [
  // Connecting to "any address" reaches this machine; multicast and the rest of 240/4 are never a receiver.
  { network: '0.0.0.0', prefix: 8, family: 'ipv4', kind: 'unspecified', never: true },
  { network: '224.0.0.0', prefix: 4, family: 'ipv4', kind: 'multicast', never: true },
  { network: '240.0.0.0', prefix: 4, family: 'ipv4', kind: 'reserved', never: true },
  { network: '127.0.0.0', prefix: 8, family: 'ipv4', kind: 'loopback' },
  { network: '169.254.0.0', prefix: 16, family: 'ipv4', kind: 'link-local' },
  { network: '10.0.0.0', prefix: 8, family: 'ipv4', kind: 'private-use' },
  { network: '172.16.0.0', prefix: 12, family: 'ipv4', kind: 'private-use' },
  { network: '192.168.0.0', prefix: 16, family: 'ipv4', kind: 'private-use' },
  { network: '100.64.0.0', prefix: 10, family: 'ipv4', kind: 'shared (carrier-grade NAT)' },
  { network: '192.0.0.0', prefix: 24, family: 'ipv4', kind: 'special-purpose' },
  { network: '198.18.0.0', prefix: 15, family: 'ipv4', kind: 'benchmarking' },
  { network: '192.0.2.0', prefix: 24, family: 'ipv4', kind: 'documentation' },
  { network: '198.51.100.0', prefix: 24, family: 'ipv4', kind: 'documentation' },
  { network: '203.0.113.0', prefix: 24, family: 'ipv4', kind: 'documentation' },
  { network: '::', prefix: 128, family: 'ipv6', kind: 'unspecified', never: true },
  { network: 'ff00::', prefix: 8, family: 'ipv6', kind: 'multicast', never: true },
  { network: '::1', prefix: 128, family: 'ipv6', kind: 'loopback' },
  { network: 'fe80::', prefix: 10, family: 'ipv6', kind: 'link-local' },
  { network: 'fc00::', prefix: 7, family: 'ipv6', kind: 'private-use' },
  { network: 'fec0::', prefix: 10, family: 'ipv6', kind: 'private-use' },
  { network: '100::', prefix: 64, family: 'ipv6', kind: 'discard-only' },
  { network: '2001:db8::', prefix: 32, family: 'ipv6', kind: 'documentation' },
  // Teredo tunnels to an address it hides; ORCHID and others are never a web server's.
  { network: '2001::', prefix: 23, family: 'ipv6', kind: 'special-purpose' },
];

/** ALERTS_ALLOWED_TARGETS, parsed: networks (an address is a /32 or /128) and host names. */
export interface AllowedTargets {
  networks: { address: string; prefix: number; family: 'ipv4' | 'ipv6' }[];
  /** Lower case; `*.example.edu` is any of its subdomains. */
  hosts: string[];
  text: string;
}

/** `127.0.0.1, 10.20.0.0/16, ::1, receiver.example.edu, *.campus.example.edu` → the list, or why not. */
export function parseAllowedTargets(value: string): AllowedTargets | { error: string } {
  const targets: AllowedTargets = { networks: [], hosts: [], text: value };
  const entries = value
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter(Boolean);
  if (entries.length === 0) return { error: 'must name at least one address, network or host name' };
  for (const entry of entries) {
    const [address, prefixText, ...rest] = entry.replace(/^\[(.*)\]$/, '$1').split('/');
    const family = isIP(address);
    if (family !== 0 && rest.length === 0) {
      const max = family === 4 ? 32 : 128;
      const prefix = prefixText === undefined ? max : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : NaN;
      if (!(prefix >= 0 && prefix <= max)) {
        return { error: `"${entry}": a network's prefix must be a number from 0 to ${max}` };
      }
      targets.networks.push({ address, prefix, family: family === 4 ? 'ipv4' : 'ipv6' });
    } else if (/^(\*\.)?[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/.test(entry)) {
      targets.hosts.push(entry);
    } else {
      return {
        error: `"${entry}" is not an address, a network (10.20.0.0/16, fd00::/8) or a host name (receiver.example.edu, *.example.edu)`,
      };
    }
  }
  return targets;
}

/** Judges the addresses a webhook's host resolves to against the special ranges and an allow-list. */
export class AddressRules {
  private readonly special = ranges.map((r) => {
    const list = new BlockList();
    list.addSubnet(r.network, r.prefix, r.family);
    return { ...r, list };
  });
  private readonly allowed = new BlockList();
  private readonly hosts: string[];

  constructor(allowed: AllowedTargets | undefined) {
    for (const n of allowed?.networks ?? []) this.allowed.addSubnet(n.address, n.prefix, n.family);
    this.hosts = allowed?.hosts ?? [];
  }

  /**
   * The range (such as "loopback") that keeps a webhook to `host` from connecting to `address`,
   * or null when it may.
   */
  refusal(host: string, address: string): { kind: string; listable: boolean } | null {
    const forms = addressForms(address);
    if (!forms) return { kind: 'unrecognised', listable: false };
    const range = forms
      .map((form) => this.special.find((r) => r.list.check(form.address, form.family)))
      .find(Boolean);
    if (!range) return null;
    if (range.never) return { kind: range.kind, listable: false };
    const listed =
      hostListed(host.toLowerCase(), this.hosts) ||
      forms.some((form) => this.allowed.check(form.address, form.family));
    return listed ? null : { kind: range.kind, listable: true };
  }
}

function hostListed(host: string, hosts: string[]): boolean {
  const bare = host.replace(/^\[|\]$/g, '');
  return hosts.some((h) => (h.startsWith('*.') ? bare.endsWith(h.slice(1)) : bare === h));
}

type Form = { address: string; family: 'ipv4' | 'ipv6' };

/** The address, and the IPv4 address an IPv6 one carries (mapped, compatible, NAT64, 6to4); null when not an address. */
export function addressForms(text: string): Form[] | null {
  const address = text.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(address);
  if (family === 4) return [{ address, family: 'ipv4' }];
  if (family !== 6) return null;
  const words = ipv6Words(address);
  const forms: Form[] = [{ address, family: 'ipv6' }];
  const zeros = (from: number, to: number) => words.slice(from, to).every((w) => w === 0);
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
  const lastTwo = words[6] !== 0 || words[7] > 1;
  if (zeros(0, 5) && (words[5] === 0xffff || (words[5] === 0 && lastTwo))) {
    forms.push({ address: v4(words[6], words[7]), family: 'ipv4' }); // ::ffff:a.b.c.d, ::a.b.c.d
  } else if (words[0] === 0x64 && words[1] === 0xff9b && (zeros(2, 6) || words[2] === 1)) {
    forms.push({ address: v4(words[6], words[7]), family: 'ipv4' }); // NAT64, well-known and local-use
  } else if (words[0] === 0x2002) {
    forms.push({ address: v4(words[1], words[2]), family: 'ipv4' }); // 6to4
  }
  return forms;
}

/** A valid IPv6 address's eight 16-bit words. */
function ipv6Words(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const part = (s: string | undefined) => (s ? s.split(':').map((w) => parseInt(w, 16)) : []);
  const first = part(head);
  const last = part(tail);
  return tail === undefined ? first : [...first, ...Array(8 - first.length - last.length).fill(0), ...last];
}
