import { randomInt } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { type AddressResult } from '@cm/contracts';
import * as netPing from 'net-ping';
import { Pinger, PingerClosedError, type PingerOptions } from '../src/ping/pinger';
import { guardStaleRequests, type NetPingInternals } from '../src/ping/stale-requests';
import { NetnsLab } from './support';

/** Real raw ICMP (the tests run as root): loopback answers, the lab's far end answers or stays silent. */
describe(Pinger.name, () => {
  let lab: NetnsLab;
  const pingers: Pinger[] = [];
  const make = (over: Partial<PingerOptions> = {}) => {
    const sut = new Pinger({
      sessionId: randomInt(1, 65_535),
      // Answers never wait for it, and a loaded machine may read one late: only a silence waits.
      timeoutMs: 10_000,
      retries: 0,
      packetGapMs: 0,
      maxOutstanding: 1000,
      ...over,
    });
    pingers.push(sut);
    return sut;
  };

  beforeAll(() => {
    lab = NetnsLab.create();
  });
  afterEach(() => pingers.splice(0).forEach((p) => p.close()));
  afterAll(() => lab?.destroy());

  it('hears loopback addresses and the far end of the lab answer, with a round-trip time', async () => {
    const sut = make();
    const results = await Promise.all(['127.0.0.1', '127.31.7.9', ...lab.answering].map((a) => sut.ping(a)));
    for (const r of results) {
      expect(r).toEqual({ address: r.address, alive: true, rttMs: expect.any(Number) });
      expect(r.rttMs).toBeGreaterThanOrEqual(0);
    }
  });

  it('gives up on a silent address after the timeout and each retry', async () => {
    const sut = make({ timeoutMs: 250, retries: 2 });
    const started = performance.now();
    const [routed, unowned] = await Promise.all([
      sut.ping(`${lab.routedPrefix}.9`),
      sut.ping(lab.unowned[0]),
    ]);
    const elapsed = performance.now() - started;
    expect(routed).toEqual({ address: `${lab.routedPrefix}.9`, alive: false, rttMs: null });
    expect(unowned).toEqual({ address: lab.unowned[0], alive: false, rttMs: null });
    // Never sooner than the three attempts' timeouts (how much later is the machine's load).
    expect(elapsed).toBeGreaterThanOrEqual(3 * 250 - 20);
    expect(sut.counters).toEqual({ sent: 2, answered: 0, unanswered: 2 });
  });

  it('hears a reply that came back in time while the process was busy past the timeout', async () => {
    const sut = make({ timeoutMs: 100, retries: 0 });
    // Busy (as a loaded machine or a long collection can leave it) right after the request has
    // left and its timer is set: loopback answers meanwhile, and when the process is back, the
    // timer is due before the socket is read.
    const session = (sut as unknown as { session: NetPingInternals }).session;
    const onSocketSend = session.onSocketSend;
    session.onSocketSend = function (req, error, bytes) {
      onSocketSend.call(this, req, error, bytes);
      const until = performance.now() + 300;
      while (performance.now() < until);
    };
    expect(await sut.ping('127.0.0.1')).toEqual({
      address: '127.0.0.1',
      alive: true,
      rttMs: expect.any(Number),
    });
    expect(sut.counters).toEqual({ sent: 1, answered: 1, unanswered: 0 });
  });

  it('keeps the gap between packets, like fping -i', async () => {
    const sut = make({ packetGapMs: 2 });
    const started = performance.now();
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) => sut.ping(`127.0.${i >> 8}.${(i % 250) + 1}`)),
    );
    const elapsed = performance.now() - started;
    expect(results.every((r) => r.alive)).toBe(true);
    // 200 packets 2 ms apart: the last leaves no sooner than 398 ms after the first. (That a
    // loaded machine does not fall behind the rate is bench/monitor's measure, not a test's.)
    expect(elapsed).toBeGreaterThanOrEqual(395);
  });

  it('keeps the average rate when the gap is shorter than a timer tick', async () => {
    const sut = make({ packetGapMs: 0.25 });
    // A timer wakes at most once a millisecond, so keeping a 0.25 ms gap means sending every packet
    // that is due at each wake. How long it takes on a busy machine is bench/monitor's measure.
    const wakes = jest.spyOn(sut as unknown as { scheduleWake(ms: number): void }, 'scheduleWake');
    const started = performance.now();
    await Promise.all(Array.from({ length: 1000 }, (_, i) => sut.ping(`127.1.${i >> 8}.${(i % 250) + 1}`)));
    const elapsed = performance.now() - started;
    // 1000 packets 0.25 ms apart: never faster than about 250 ms,
    expect(elapsed).toBeGreaterThanOrEqual(245);
    // and never one packet per wake, which would take a millisecond each.
    expect(wakes.mock.calls.length).toBeLessThan(1000 / 2);
  });

  it('opens a new socket when its socket closes, and sends again what was awaiting a reply', async () => {
    const sut = make();
    const waiting = Array.from({ length: 20 }, (_, i) => sut.ping(`127.0.9.${i + 1}`));
    // What raw-socket does after a socket error.
    (sut as unknown as { session: { getSocket(): { close(): void } } }).session.getSocket().close();
    const results = await Promise.all(waiting);
    expect(results.every((r) => r.alive)).toBe(true);
    expect((await sut.ping('127.0.0.1')).alive).toBe(true);
  });

  it('never has more requests awaiting a reply than allowed', async () => {
    const sut = make({ maxOutstanding: 5, timeoutMs: 200 });
    let most = 0;
    const watch = setInterval(() => (most = Math.max(most, sut.inFlight)), 5);
    const started = performance.now();
    const results = await Promise.all(
      Array.from({ length: 15 }, (_, i) => sut.ping(`${lab.routedPrefix}.${i + 1}`)),
    );
    clearInterval(watch);
    expect(results.every((r) => !r.alive)).toBe(true);
    expect(most).toBe(5);
    // Three rounds of five silent addresses, one timeout each.
    expect(performance.now() - started).toBeGreaterThanOrEqual(3 * 200 - 20);
  });

  it('tells apart two sessions pinging the same address at once', async () => {
    const a = make();
    const b = make();
    const [ra, rb] = await Promise.all([a.ping('127.0.0.7'), b.ping('127.0.0.7')]);
    expect([ra.alive, rb.alive]).toEqual([true, true]);
    expect([a.counters.answered, b.counters.answered]).toEqual([1, 1]);
  });

  it('rejects what is queued or awaiting a reply when closed, instead of calling it silent', async () => {
    const sut = make({ timeoutMs: 2000, maxOutstanding: 1 });
    const waiting = [sut.ping(`${lab.routedPrefix}.1`), sut.ping('127.0.0.1')];
    sut.close();
    for (const p of waiting) await expect(p).rejects.toBeInstanceOf(PingerClosedError);
    await expect(sut.ping('127.0.0.1')).rejects.toBeInstanceOf(PingerClosedError);
  });

  it('refuses a session id or a bound that net-ping cannot honour', () => {
    expect(() => make({ sessionId: 0 })).toThrow(/1 to 65534/);
    expect(() => make({ maxOutstanding: 65_535 })).toThrow(/65534/);
  });

  it('lets a retry sent after its request was answered cancel nothing', () => {
    const session = netPing.createSession({ sessionId: randomInt(1, 65_535), timeout: 60_000, retries: 1 });
    expect(guardStaleRequests(session)).toBe(true);
    const internals = session as unknown as NetPingInternals & { reqsPending: number };
    const answered = { id: 9, retries: 0, callback: jest.fn() };
    // A later request got id 9 after the first one was answered (ids wrap after 65535).
    const timer = setTimeout(() => undefined, 60_000);
    const heir = { id: 9, retries: 0, timer, callback: jest.fn() };
    internals.reqs[9] = heir;
    internals.reqsPending++;
    try {
      // The answered request's retry leaves the socket late, then times out.
      internals.onSocketSend(answered, null, 16);
      internals.onTimeout(answered);
      // The heir is left as it was: still waiting on its own timer, not retried.
      expect(internals.reqs[9]).toBe(heir);
      expect(heir).toEqual({ id: 9, retries: 0, timer, callback: heir.callback });
      expect(answered.callback).not.toHaveBeenCalled();
      expect(heir.callback).not.toHaveBeenCalled();
    } finally {
      clearTimeout(heir.timer);
      delete internals.reqs[9];
      internals.reqsPending--;
      session.close();
    }
  });
});

/**
 * Sweeps as a script makes them (bench/monitor/sweep.cjs): nothing but the sweep's own callbacks
 * refers to the pinger, so only what net-ping and raw-socket hold can keep it. Major collections
 * are forced all along: in a script's small heap a sweep's garbage (about 70 MB per 10,000 pings)
 * brings one or two anyway, at a moment that varies; jest's larger heap may see none. Many short
 * sweeps give a collection more chances to fall between two send batches than a few long ones
 * (without the pinger being held, these fail within about 15 sweeps); the rate of long sweeps is
 * bench/monitor's measure.
 */
describe(`${Pinger.name} without a packet gap`, () => {
  const SWEEPS = 40;
  /** A hang, not a speed target: a sweep of these takes well under a second. */
  const STALL_LIMIT_MS = 20_000;
  /** 1,000 loopback addresses over two /16s: 127.1.0.1 to 127.1.1.250 and 127.2.0.1 to 127.2.1.250. */
  const addresses = Array.from({ length: 1000 }, (_, i) => {
    const j = i % 500;
    return `127.${1 + Math.floor(i / 500)}.${Math.floor(j / 250)}.${(j % 250) + 1}`;
  });
  let collecting: NodeJS.Timeout | undefined;

  beforeAll(() => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    // At most a third of the time, however long a collection of jest's heap takes.
    const collect = () => {
      const started = performance.now();
      gc();
      collecting = setTimeout(collect, Math.max(50, 2 * (performance.now() - started)));
    };
    collecting = setTimeout(collect, 50);
  });
  afterAll(() => clearTimeout(collecting));

  it.each([
    ['a fresh pinger for each', true],
    ['one pinger for all', false],
  ])(`answers every address of ${SWEEPS} sweeps of 1,000, with %s`, async (_, fresh) => {
    let swept = 0;
    let pinger: WeakRef<Pinger> | undefined;
    const sweeps = unrootedSweeps(addresses, SWEEPS, fresh, {
      pinger: (p) => (pinger = p),
      swept: (sweep, results) => {
        const silent = results.filter((r, i) => !r.alive || r.address !== addresses[i]);
        expect({ sweep, count: results.length, silent: silent.slice(0, 5) }).toEqual({
          sweep,
          count: addresses.length,
          silent: [],
        });
        swept = sweep;
      },
    });
    await unlessStalled(
      sweeps,
      () => swept,
      STALL_LIMIT_MS,
      () => {
        const left = pinger?.deref();
        left?.close();
        return (
          `sweep ${swept + 1} of ${SWEEPS} had not answered every address after ${STALL_LIMIT_MS} ms ` +
          (left
            ? `(${left.counters.answered + left.counters.unanswered} of ${left.counters.sent} settled)`
            : '(its pinger, socket included, was garbage-collected with pings in flight)')
        );
      },
    );
    expect(swept).toBe(SWEEPS);
  });
});

/**
 * Sweeps `addresses` `sweeps` times, with a fresh pinger for each or one for all, in a chain of
 * promises that nothing else holds. It reports each pinger (as a WeakRef, to close one that
 * hangs) and each sweep's results, through callbacks that cannot reach the pinger.
 */
async function unrootedSweeps(
  addresses: readonly string[],
  sweeps: number,
  fresh: boolean,
  report: { pinger(pinger: WeakRef<Pinger>): void; swept(sweep: number, results: AddressResult[]): void },
): Promise<void> {
  let pinger: Pinger | undefined;
  try {
    for (let sweep = 1; sweep <= sweeps; sweep++) {
      if (!pinger || fresh) {
        pinger?.close();
        pinger = new Pinger({
          sessionId: randomInt(1, 65_535),
          // Loopback answers at once; a loaded machine may read an answer late.
          timeoutMs: 5000,
          retries: 1,
          packetGapMs: 0,
          maxOutstanding: 10_000,
        });
        report.pinger(new WeakRef(pinger));
      }
      const sut = pinger;
      report.swept(sweep, await Promise.all(addresses.map((a) => sut.ping(a))));
    }
  } finally {
    pinger?.close();
  }
}

/** Settles as `work` does, or fails with `explain()` once `progress()` has stayed put for `ms`. */
function unlessStalled(
  work: Promise<void>,
  progress: () => number,
  ms: number,
  explain: () => string,
): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = progress();
    let since = performance.now();
    const watch = setInterval(() => {
      if (progress() !== seen) {
        seen = progress();
        since = performance.now();
      } else if (performance.now() - since > ms) {
        clearInterval(watch);
        reject(new Error(explain()));
      }
    }, 100);
    work.then(resolve, reject).finally(() => clearInterval(watch));
  });
}
