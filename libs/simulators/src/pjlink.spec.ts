import { createHash } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { type PjlinkSimulator, startPjlinkSimulator } from './pjlink';

/** A bare client: lines as they arrive, how many packets carried them, and whether it closed. */
class RawClient {
  readonly lines: string[] = [];
  packets = 0;
  closed = false;
  private pending = '';
  private constructor(readonly socket: Socket) {
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      this.packets += 1;
      this.pending += chunk;
      const parts = this.pending.split('\r');
      this.pending = parts.pop() ?? '';
      this.lines.push(...parts);
    });
    socket.on('close', () => (this.closed = true));
    socket.on('error', () => undefined);
  }

  static open(sim: PjlinkSimulator): Promise<RawClient> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host: sim.host, port: sim.port }, () => resolve(new RawClient(socket)));
      socket.once('error', reject);
    });
  }

  async ask(text: string): Promise<string> {
    const before = this.lines.length;
    this.socket.write(`${text}\r`);
    return until(() => this.lines[before]);
  }
}

async function until<T>(read: () => T | undefined | false, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error('Timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe(startPjlinkSimulator.name, () => {
  const sims: PjlinkSimulator[] = [];
  const clients: RawClient[] = [];
  const start = async (options: Omit<Parameters<typeof startPjlinkSimulator>[0], 'host'> = {}) => {
    const sim = await startPjlinkSimulator({ host: '127.0.44.1', ...options });
    sims.push(sim);
    return sim;
  };
  /** A connection, greeted unless `greeted` is false. */
  const open = async (sim: PjlinkSimulator, greeted = true) => {
    const client = await RawClient.open(sim);
    clients.push(client);
    if (greeted) await until(() => client.lines[0]);
    return client;
  };
  afterEach(async () => {
    clients.splice(0).forEach((c) => c.socket.destroy());
    await Promise.all(sims.splice(0).map((s) => s.close()));
  });

  it('asks for the password, answers the right digest and refuses a wrong one', async () => {
    const sim = await start({ class: 2, password: 'secret', serial: 'SN-1' });
    const good = await open(sim);
    const greeting = await until(() => good.lines[0]);
    expect(greeting).toMatch(/^PJLINK 1 [0-9a-f]{8}$/);
    const digest = createHash('md5')
      .update(`${greeting.slice(9)}secret`)
      .digest('hex');
    expect(await good.ask(`${digest}%1POWR ?`)).toBe('%1POWR=1');
    expect(await good.ask('%2SNUM ?')).toBe('%2SNUM=SN-1');
    good.socket.destroy();
    await until(() => sim.openConnections === 0);

    const bad = await open(sim);
    expect(await bad.ask(`${'0'.repeat(32)}%1POWR ?`)).toBe('PJLINK ERRA');
    await until(() => bad.closed);
  });

  it('serves one controller at a time: a second connection is closed without a greeting', async () => {
    const sim = await start();
    const first = await open(sim);
    const second = await open(sim, false);
    await until(() => second.closed);
    expect(second.lines).toEqual([]);
    expect(sim.busyRefusals).toBe(1);
    expect(await first.ask('%1POWR ?')).toBe('%1POWR=1');
  });

  it('answers ERR3 about the lamp while warming, and ages lamps and filter into warnings', async () => {
    const sim = await start({
      class: 2,
      power: 'warming',
      lamps: [{ hours: 2990, on: true }],
      filterHours: 1990,
      ageing: { lampWarningHours: 3000, filterWarningHours: 2000 },
    });
    const client = await open(sim);
    expect(await client.ask('%1POWR ?')).toBe('%1POWR=3');
    expect(await client.ask('%1LAMP ?')).toBe('%1LAMP=ERR3');
    sim.setPower('on');
    sim.advanceHours(12.5);
    expect(await client.ask('%1LAMP ?')).toBe('%1LAMP=3002 1');
    expect(await client.ask('%2FILT ?')).toBe('%2FILT=2002');
    expect(await client.ask('%1ERST ?')).toBe('%1ERST=010010');
  });

  it('answers a class 2 question from a class 1 device with ERR1', async () => {
    const sim = await start({ class: 1 });
    const client = await open(sim);
    expect(await client.ask('%2SVER ?')).toBe('%2SVER=ERR1');
    expect(await client.ask('%1CLSS ?')).toBe('%1CLSS=1');
  });

  it('sends each line in pieces when asked to split packets', async () => {
    const sim = await start({ splitPackets: true, name: 'Lecture Hall A' });
    const client = await open(sim);
    expect(await client.ask('%1NAME ?')).toBe('%1NAME=Lecture Hall A');
    expect(client.lines).toEqual(['PJLINK 0', '%1NAME=Lecture Hall A']);
    // Two lines in more than two packets: at least one came in pieces.
    expect(client.packets).toBeGreaterThan(2);
  });
});
