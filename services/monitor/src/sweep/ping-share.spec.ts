import { type AddressResult } from '@cm/contracts';
import { type PingCallback, PingerClosedError } from '../ping/pinger';
import { packAddresses } from '../targets/packed-addresses';
import { type TargetShare } from '../targets/target-list';
import { pingShare, type PingShareOptions } from './ping-share';

const ip = (text: string) => text.split('.').reduce((n, octet) => n * 256 + Number(octet), 0);

/** A share of `[equipment id, address or range start, count]`. */
function shareOf(...targets: [string, string, number?][]): TargetShare {
  return {
    equipmentIds: targets.map(([id]) => id),
    addresses: targets.map(([, first, count]) => packAddresses(ip(first), count ?? 1)),
  };
}

/** Pings answered by hand: every address sent and not yet answered, in order. */
class Addresses {
  readonly sent: string[] = [];
  readonly waiting = new Map<string, PingCallback[]>();
  most = 0;
  private inFlight = 0;
  private roomMade?: () => void;

  /** Like the pinger's `room`: waits while `below` or more pings are unanswered. */
  room(below: number): Promise<void> | undefined {
    if (this.inFlight < below) return undefined;
    return new Promise((resolve) => (this.roomMade = resolve));
  }

  ping = (address: string, done: PingCallback): void => {
    this.sent.push(address);
    this.most = Math.max(this.most, ++this.inFlight);
    const list = this.waiting.get(address) ?? [];
    list.push((error, result) => {
      this.inFlight--;
      done(error, result);
    });
    this.waiting.set(address, list);
  };

  /** Answers every address waiting now (alive unless listed as silent), then lets the sweep go on. */
  async answerAll(silent: string[] = []): Promise<void> {
    const now = [...this.waiting];
    this.waiting.clear();
    for (const [address, resolvers] of now) {
      const alive = !silent.includes(address);
      for (const r of resolvers) r(null, { address, alive, rttMs: alive ? 0.1 : null });
    }
    this.roomMade?.();
    await settle();
  }
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

function run(share: TargetShare, addresses: Addresses, over: Partial<PingShareOptions> = {}) {
  const checked: [string, AddressResult[]][] = [];
  const done = pingShare(share, {
    ping: addresses.ping,
    checked: (id, results) => checked.push([id, results]),
    aborted: () => false,
    ready: () => addresses.room(1000),
    ...over,
  });
  return { checked, done };
}

describe(pingShare.name, () => {
  it('hands on each equipment’s results, in the order of its addresses, once they are all in', async () => {
    const addresses = new Addresses();
    const { checked, done } = run(
      shareOf(['one', '10.0.0.1'], ['range', '10.0.1.5', 3], ['silent', '10.0.2.9']),
      addresses,
    );
    await settle();
    expect(addresses.sent).toEqual(['10.0.0.1', '10.0.1.5', '10.0.1.6', '10.0.1.7', '10.0.2.9']);
    await addresses.answerAll(['10.0.1.6', '10.0.2.9']);
    await done;
    expect(new Map(checked)).toEqual(
      new Map([
        ['one', [{ address: '10.0.0.1', alive: true, rttMs: 0.1 }]],
        [
          'range',
          [
            { address: '10.0.1.5', alive: true, rttMs: 0.1 },
            { address: '10.0.1.6', alive: false, rttMs: null },
            { address: '10.0.1.7', alive: true, rttMs: 0.1 },
          ],
        ],
        ['silent', [{ address: '10.0.2.9', alive: false, rttMs: null }]],
      ]),
    );
  });

  it('pings the next equipment only when ready, and still pings every one', async () => {
    const addresses = new Addresses();
    const targets = Array.from({ length: 50 }, (_, i): [string, string, number] => [
      `e${i}`,
      `10.1.${i}.1`,
      1 + (i % 4),
    ]);
    const { checked, done } = run(shareOf(...targets), addresses, { ready: () => addresses.room(7) });
    for (let turn = 0; turn < 100 && checked.length < 50; turn++) {
      await settle();
      await addresses.answerAll();
    }
    await done;
    // Equipment of 1 to 4 addresses, each begun while fewer than 7 were unanswered.
    expect(addresses.most).toBeLessThanOrEqual(6 + 4);
    expect(checked.map(([id]) => id).sort()).toEqual(targets.map(([id]) => id).sort());
    expect(addresses.sent).toHaveLength(targets.reduce((n, [, , count]) => n + count, 0));
  });

  it('pings an address several equipment share once, and gives each of them its answer', async () => {
    const addresses = new Addresses();
    const { checked, done } = run(
      shareOf(['a', '10.0.0.5'], ['b', '10.0.0.9'], ['range', '10.0.0.4', 3], ['c', '10.0.0.5']),
      addresses,
      { ready: () => addresses.room(2) },
    );
    for (let turn = 0; turn < 10 && checked.length < 4; turn++) {
      await settle();
      await addresses.answerAll();
    }
    await done;
    expect([...addresses.sent].sort()).toEqual(['10.0.0.4', '10.0.0.5', '10.0.0.6', '10.0.0.9']);
    const byId = new Map(checked);
    expect(byId.get('c')).toEqual(byId.get('a'));
    expect(byId.get('range')!.map((r) => r.address)).toEqual(['10.0.0.4', '10.0.0.5', '10.0.0.6']);
  });

  it('waits while the results cannot be taken, and goes on when they can', async () => {
    const addresses = new Addresses();
    let release!: () => void;
    let blocked = true;
    const { done } = run(shareOf(['a', '10.0.0.1'], ['b', '10.0.0.2']), addresses, {
      ready: () => (blocked ? new Promise<void>((resolve) => (release = resolve)) : undefined),
    });
    await settle();
    expect(addresses.sent).toEqual([]);
    blocked = false;
    release();
    await settle();
    expect(addresses.sent).toEqual(['10.0.0.1', '10.0.0.2']);
    await addresses.answerAll();
    await done;
  });

  it('stops sending and hands on nothing once aborted', async () => {
    const addresses = new Addresses();
    let aborted = false;
    const targets = Array.from({ length: 10 }, (_, i): [string, string] => [`e${i}`, `10.2.0.${i + 1}`]);
    const { checked, done } = run(shareOf(...targets), addresses, {
      ready: () => addresses.room(3),
      aborted: () => aborted,
    });
    await settle();
    aborted = true;
    await addresses.answerAll();
    await done;
    expect(checked).toEqual([]);
    expect(addresses.sent).toEqual(['10.2.0.1', '10.2.0.2', '10.2.0.3']);
  });

  it('ends without results when the pinger closes', async () => {
    const closed = (_address: string, done: PingCallback) =>
      process.nextTick(done, new PingerClosedError(), null);
    const { checked, done } = run(shareOf(['a', '10.0.0.1'], ['b', '10.0.0.2']), new Addresses(), {
      ping: closed,
    });
    await done;
    expect(checked).toEqual([]);
  });

  it('passes on an error other than the pinger closing, after what it sent has settled', async () => {
    const failing = (_address: string, done: PingCallback) =>
      process.nextTick(done, new Error('broken'), null);
    await expect(run(shareOf(['a', '10.0.0.1']), new Addresses(), { ping: failing }).done).rejects.toThrow(
      'broken',
    );
  });
});
