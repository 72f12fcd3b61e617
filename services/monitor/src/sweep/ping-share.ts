import { type AddressResult } from '@cm/contracts';
import { type PingCallback, PingerClosedError } from '../ping/pinger';
import { addressAt, addressCount, formatIpv4 } from '../targets/packed-addresses';
import { type TargetShare } from '../targets/target-list';

export interface PingShareOptions {
  /** Pings one address, calling back later with its answer, or with PingerClosedError when pinging stops. */
  ping(address: string, done: PingCallback): void;
  /** One equipment's results, in the order of its addresses. */
  checked(equipmentId: string, results: AddressResult[]): void;
  /** True once the share is given up: nothing more is sent, and no result is handed on. */
  aborted(): boolean;
  /**
   * Undefined when the next equipment may be pinged now; otherwise a promise that resolves when
   * it may be asked again (the pinger's queue is long enough, or results wait to be sent).
   */
  ready(): Promise<void> | undefined;
}

/** An address that more than one equipment of the share has. */
interface SharedAddress {
  /** Equipment that have not yet asked for it. */
  users: number;
  /** Callers waiting for the one ping of it; undefined before it is sent. */
  waiting?: PingCallback[];
  /** What the ping came back with, for those that ask later. */
  settled?: Parameters<PingCallback>;
}

/**
 * Pings a share's equipment in list order, each only when `ready` says so: each equipment's
 * results are handed on as soon as all its addresses have answered or timed out, and nothing of
 * it is kept after. What a sweep holds is the share's list (two arrays) and, for each address
 * being pinged, a callback and the results array of its equipment: at 50,000 devices, promises,
 * async functions and results of every equipment held at once took hundreds of megabytes.
 *
 * An address that several equipment of the share have is pinged once; its answer is kept until
 * the last of them has it.
 */
export async function pingShare(share: TargetShare, options: PingShareOptions): Promise<void> {
  const shared = sharedAddresses(share);
  let failure: { error: unknown } | undefined;
  /** Equipment whose pings are under way. */
  let checking = 0;
  let allChecked: (() => void) | undefined;

  const pingOnce = (address: number, done: PingCallback): void => {
    const entry = shared.get(address);
    if (!entry) {
      options.ping(formatIpv4(address), done);
      return;
    }
    if (--entry.users === 0) shared.delete(address);
    if (entry.settled) process.nextTick(done, ...entry.settled);
    else if (entry.waiting) entry.waiting.push(done);
    else {
      const waiting = (entry.waiting = [done]);
      options.ping(formatIpv4(address), (error, result) => {
        entry.settled = [error, result];
        for (const waiter of waiting) waiter(error, result);
      });
    }
  };

  const check = (index: number): void => {
    const addresses = share.addresses[index];
    const count = addressCount(addresses);
    const results = new Array<AddressResult>(count);
    let remaining = count;
    let closed = false;
    checking++;
    for (let i = 0; i < count; i++) {
      pingOnce(addressAt(addresses, i), (error, result) => {
        if (error) {
          closed = true;
          if (!(error instanceof PingerClosedError)) failure ??= { error };
        } else results[i] = result!;
        if (--remaining > 0) return;
        // A replica going away hands on nothing more: what it measured while stopping is not trusted.
        try {
          if (!closed && !options.aborted()) options.checked(share.equipmentIds[index], results);
        } catch (error) {
          failure ??= { error };
        }
        if (--checking === 0) allChecked?.();
      });
    }
  };

  for (let index = 0; index < share.equipmentIds.length; index++) {
    for (let wait = options.ready(); wait && !failure && !options.aborted(); wait = options.ready())
      await wait;
    if (failure || options.aborted()) break;
    check(index);
  }
  if (checking > 0) await new Promise<void>((resolve) => (allChecked = resolve));
  if (failure) throw failure.error;
}

/** Addresses that more than one equipment of the share has, each with the number of those equipment. */
function sharedAddresses(share: TargetShare): Map<number, SharedAddress> {
  const { addresses } = share;
  let total = 0;
  for (let i = 0; i < addresses.length; i++) total += addressCount(addresses[i]);
  const all = new Uint32Array(total);
  for (let i = 0, at = 0; i < addresses.length; i++) {
    for (let k = 0; k < addressCount(addresses[i]); k++) all[at++] = addressAt(addresses[i], k);
  }
  all.sort();
  const shared = new Map<number, SharedAddress>();
  for (let start = 0; start < all.length;) {
    let end = start + 1;
    while (end < all.length && all[end] === all[start]) end++;
    if (end - start > 1) shared.set(all[start], { users: end - start });
    start = end;
  }
  return shared;
}
