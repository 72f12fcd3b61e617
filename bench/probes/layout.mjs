// Where the bench's devices are: each kind in its own loopback block, 5,000 addresses per /16
// (third octet 0–24, fourth 1–200), as bench/status lays out its ping targets.
const PER_16 = 5000;

/** First octet after 127 of each kind's block: ping-only devices, PJLink projectors, SNMP agents. */
export const BLOCKS = { icmp: 10, pjlink: 20, snmp: 30 };

/** The address of device `k` (0-based) of a kind. */
export function addressOf(kind, k) {
  return `127.${BLOCKS[kind] + Math.floor(k / PER_16)}.${Math.floor((k % PER_16) / 200)}.${(k % 200) + 1}`;
}

/** Blocks are ten /16s apart: a kind holds at most 50,000 devices. */
export const MAX_PER_KIND = 10 * PER_16;
