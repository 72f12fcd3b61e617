import { type AddressInfo, connect, createServer, Server, type Socket } from 'node:net';
import { eventually } from '@cm/platform/testing';
import { type PjlinkSimulator, type PjlinkSimulatorOptions, startPjlinkSimulator } from '@cm/simulators';
import { type ProbeRequest } from '../src/probes/probe';
import { PASSWORD_NEEDED, PjlinkProbe, WRONG_PASSWORD } from '../src/probes/pjlink/pjlink.probe';

const HOST = '127.0.45.1';

/** Simulated projectors on loopback, probed over real sockets. */
describe(PjlinkProbe.name, () => {
  const sims: PjlinkSimulator[] = [];
  const others: (Server | Socket)[] = [];
  const sut = new PjlinkProbe();

  const simulate = async (options: Omit<PjlinkSimulatorOptions, 'host'> = {}) => {
    const sim = await startPjlinkSimulator({ host: HOST, ...options });
    sims.push(sim);
    return sim;
  };
  const request = (port: number, over: Partial<Omit<ProbeRequest, 'settings'>> = {}) => ({
    address: HOST,
    port,
    settings: { type: 'pjlink' as const },
    secrets: {},
    timeoutMs: 10_000,
    ...over,
  });
  /** Probes the simulator and checks the probe left no connection open behind it. */
  const probe = async (sim: PjlinkSimulator, over: Partial<Omit<ProbeRequest, 'settings'>> = {}) => {
    const result = await sut.probe(request(sim.port, over));
    await eventually(() => expect(sim.openConnections).toBe(0));
    return result;
  };

  afterEach(async () => {
    others.splice(0).forEach((o) => (o instanceof Server ? o.close() : o.destroy()));
    await Promise.all(sims.splice(0).map((s) => s.close()));
  });

  it('reads a class 1 projector and asks it no class 2 question', async () => {
    const sim = await simulate({
      class: 1,
      lamps: [{ hours: 1234, on: true }],
      manufacturer: 'EPSON',
      model: 'EB-2250U',
      name: 'Room 101 projector',
      input: '31',
    });
    expect(await probe(sim)).toEqual({
      outcome: 'answered',
      durationMs: expect.any(Number),
      findings: [],
      power: 'on',
      lamps: [{ hours: 1234, on: true }],
      input: 'Digital 1',
      model: 'EPSON EB-2250U',
      deviceName: 'Room 101 projector',
    });
    expect(sim.received.filter((c) => c.startsWith('%2'))).toEqual([]);
  });

  it('reads filter hours, serial, firmware and replacement parts of a class 2 projector in standby', async () => {
    const sim = await simulate({
      class: 2,
      power: 'standby',
      lamps: [
        { hours: 2950, on: false },
        { hours: 80, on: false },
      ],
      filterHours: 1800,
      manufacturer: 'NEC',
      model: 'NEC P525UL',
      serial: '1Y00321EJ',
      firmware: '1.05',
      replacementLamp: 'NP44LP',
      replacementFilter: 'NP06FT',
      input: '52',
      videoMuted: true,
    });
    expect(await probe(sim)).toEqual({
      outcome: 'answered',
      durationMs: expect.any(Number),
      // Standby is where a projector should be between lectures: not a fault.
      findings: [],
      power: 'standby',
      lamps: [
        { hours: 2950, on: false },
        { hours: 80, on: false },
      ],
      filterHours: 1800,
      input: 'Network 2, picture muted',
      model: 'NEC P525UL',
      serial: '1Y00321EJ',
      firmware: '1.05',
      deviceName: 'Room projector',
      replacementLamp: 'NP44LP',
      replacementFilter: 'NP06FT',
    });
  });

  it('reads a projector that wants a password when given the right one', async () => {
    const sim = await simulate({ class: 2, password: 'lecture-hall' });
    const result = await probe(sim, { secrets: { password: 'lecture-hall' } });
    expect(result).toMatchObject({ outcome: 'answered', power: 'on', serial: 'X3JK8800123' });
  });

  it('says the password is wrong, not that the device is offline', async () => {
    const sim = await simulate({ class: 2, password: 'lecture-hall' });
    expect(await probe(sim, { secrets: { password: 'guess' } })).toEqual({
      outcome: 'auth-failed',
      findings: [{ state: 'error', reason: WRONG_PASSWORD }],
      detail: WRONG_PASSWORD,
    });
  });

  it('says a password is needed when the device asks for one and none is set', async () => {
    const sim = await simulate({ class: 1, password: 'lecture-hall' });
    expect(await probe(sim)).toEqual({
      outcome: 'auth-failed',
      findings: [{ state: 'error', reason: PASSWORD_NEEDED }],
      detail: PASSWORD_NEEDED,
    });
    expect(sim.received).toEqual([]);
  });

  it('waits for a projector that takes 1.5 s over each answer', async () => {
    const sim = await simulate({ class: 1, answerDelayMs: 1500, lamps: [{ hours: 700, on: true }] });
    const result = await probe(sim, { timeoutMs: 60_000 });
    expect(result).toMatchObject({ outcome: 'answered', power: 'on', lamps: [{ hours: 700, on: true }] });
    expect(result.detail).toBeUndefined();
  });

  it('joins answers that arrive in pieces', async () => {
    const sim = await simulate({ class: 2, splitPackets: true, name: 'Hörsaal 3', serial: 'SN-77' });
    expect(await probe(sim)).toMatchObject({ outcome: 'answered', deviceName: 'Hörsaal 3', serial: 'SN-77' });
  });

  it('reads a warming projector: power is read, what it cannot tell yet is left out, nothing fails', async () => {
    const sim = await simulate({ class: 2, power: 'warming' });
    const result = await probe(sim);
    expect(result).toMatchObject({
      outcome: 'answered',
      power: 'warming',
      findings: [],
      serial: 'X3JK8800123',
    });
    expect(result.lamps).toBeUndefined();
    expect(result.filterHours).toBeUndefined();
  });

  it('reports the warnings and errors the projector reports', async () => {
    const sim = await simulate({
      class: 2,
      lamps: [{ hours: 3050, on: true }],
      errors: { lamp: 'warning', fan: 'error' },
    });
    expect(await probe(sim)).toMatchObject({
      outcome: 'answered',
      lamps: [{ hours: 3050, on: true }],
      findings: [
        { state: 'error', reason: 'Fan error' },
        { state: 'warning', reason: 'Lamp warning' },
      ],
    });
    sim.state.errors = { fan: 'ok', lamp: 'ok', temperature: 'ok', cover: 'ok', filter: 'ok', other: 'ok' };
    sim.state.failure = true;
    expect(await probe(sim)).toMatchObject({
      outcome: 'answered',
      findings: [{ state: 'error', reason: 'The device reports a failure' }],
    });
  });

  it('keeps what a device said before it went quiet', async () => {
    const sim = await simulate({ class: 1, answerDelayMs: 200 });
    const reading = new PjlinkProbe({ answerTimeoutMs: 1000 }).probe(request(sim.port));
    await eventually(() => expect(sim.received.length).toBeGreaterThanOrEqual(3), 15_000, 20);
    sim.behaviour.silent = true;
    expect(await reading).toMatchObject({
      outcome: 'answered',
      power: 'on',
      findings: [],
      detail: expect.stringMatching(/^Read \d of \d answers: No answer within 1 s$/),
    });
    await eventually(() => expect(sim.openConnections).toBe(0));
  });

  it('finds a device that answers ping but refuses PJLink unreachable', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, HOST, resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    expect(await sut.probe(request(port))).toEqual({
      outcome: 'unreachable',
      findings: [],
      detail: `Connection refused on port ${port}`,
    });
  });

  it('gives up on a device that never answers within the probe timeout', async () => {
    const sim = await simulate({ silent: true });
    expect(await probe(sim, { timeoutMs: 1000 })).toEqual({
      outcome: 'unreachable',
      findings: [],
      detail: 'No answer within 1 s',
    });
  });

  it('finds a device busy with another controller unreachable, with that reason', async () => {
    const sim = await simulate();
    const other = connect({ host: HOST, port: sim.port });
    others.push(other);
    await eventually(() => expect(sim.openConnections).toBe(1));
    expect(await sut.probe(request(sim.port))).toMatchObject({
      outcome: 'unreachable',
      detail: expect.stringContaining('another controller may be connected'),
    });
    expect(sim.busyRefusals).toBe(1);
  });

  it('stops when its signal is aborted and closes the connection', async () => {
    const sim = await simulate({ answerDelayMs: 30_000 });
    const abort = new AbortController();
    const result = sut.probe(request(sim.port, { signal: abort.signal, timeoutMs: 60_000 }));
    await eventually(() => expect(sim.received).toEqual(['%1POWR ?']));
    abort.abort();
    expect(await result).toEqual({
      outcome: 'unreachable',
      findings: [],
      detail: expect.stringContaining('stopped'),
    });
    await eventually(() => expect(sim.openConnections).toBe(0));
  });

  it('says a device that does not speak PJLink gave an unreadable answer', async () => {
    const server = createServer((socket) => socket.end('SSH-2.0-OpenSSH_9.6\r\n'));
    others.push(server);
    await new Promise<void>((resolve) => server.listen(0, HOST, resolve));
    const { port } = server.address() as AddressInfo;
    expect(await sut.probe(request(port))).toEqual({
      outcome: 'protocol-error',
      findings: [],
      detail: 'Not a PJLink greeting: "SSH-2.0-OpenSSH_9.6"',
    });
  });
});
