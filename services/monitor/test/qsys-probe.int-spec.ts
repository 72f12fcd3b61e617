import { eventually } from '@cm/platform/testing';
import {
  startQsysSimulator,
  startTcpSimulator,
  type QrcDelivery,
  type QsysSimulator,
  type QsysSimulatorOptions,
} from '@cm/simulators';
import { QsysProbe } from '../src/probes/qsys/qsys.probe';
import { SIMULATOR_HOST, requestTo } from './probe-support';

describe(QsysProbe.name, () => {
  const sut = new QsysProbe();
  const settings = { type: 'qsys' as const };
  const cores: QsysSimulator[] = [];
  const startCore = async (over: Partial<QsysSimulatorOptions> = {}) => {
    const core = await startQsysSimulator({
      host: SIMULATOR_HOST,
      state: 'Active',
      status: { code: 0, string: 'OK' },
      platform: 'Core 110f',
      designName: 'Lecture-Hall-2',
      ...over,
    });
    cores.push(core);
    return core;
  };
  afterEach(() => Promise.all(cores.splice(0).map((c) => c.close())));

  const healthyActive = {
    outcome: 'answered',
    durationMs: expect.any(Number),
    power: 'on',
    model: 'Core 110f',
    deviceName: 'Lecture-Hall-2',
    findings: [],
  };

  it('reads platform, design and state from an active core that needs no logon', async () => {
    const core = await startCore();

    expect(await sut.probe(requestTo(core, settings))).toEqual(healthyActive);
  });

  it.each<QrcDelivery>(['coalesced', 'split'])(
    'reads the same when the core sends its messages %s',
    async (delivery) => {
      const core = await startCore({ delivery, user: 'monitor', password: '2468' });

      const reading = await sut.probe(
        requestTo(core, { ...settings, username: 'monitor' }, { secrets: { password: '2468' } }),
      );

      expect(reading).toEqual(healthyActive);
    },
  );

  it('logs on with the user name and password when they are set', async () => {
    const core = await startCore({ user: 'monitor', password: '2468' });

    const reading = await sut.probe(
      requestTo(core, { ...settings, username: 'monitor' }, { secrets: { password: '2468' } }),
    );

    expect(reading).toEqual(healthyActive);
  });

  it('says the logon was refused for a wrong password, and that one is needed when none is set', async () => {
    const core = await startCore({ user: 'monitor', password: '2468' });

    const wrong = await sut.probe(
      requestTo(core, { ...settings, username: 'monitor' }, { secrets: { password: '1357' } }),
    );
    const none = await sut.probe(requestTo(core, settings));

    expect(wrong).toEqual({
      outcome: 'auth-failed',
      findings: [],
      durationMs: expect.any(Number),
      detail: 'Q-SYS logon refused',
    });
    expect(none).toMatchObject({
      outcome: 'auth-failed',
      detail: 'Q-SYS asks for a logon: set a user name and password',
    });
  });

  it('takes standby for the backup of a redundant pair as healthy, and warns of a lone core in standby', async () => {
    const core = await startCore({ state: 'Standby', isRedundant: true });

    const backup = await sut.probe(requestTo(core, settings));
    core.update({ isRedundant: false });
    const lone = await sut.probe(requestTo(core, settings));

    expect(backup).toMatchObject({ outcome: 'answered', power: 'standby', findings: [] });
    expect(lone).toMatchObject({
      outcome: 'answered',
      power: 'standby',
      findings: [{ state: 'warning', reason: 'Q-SYS core in standby' }],
    });
  });

  it('reports the core’s own fault and compromised status in its words, and an idle core', async () => {
    const core = await startCore({ status: { code: 2, string: 'Fault - Amplifier AMP-1 missing' } });

    const fault = await sut.probe(requestTo(core, settings));
    core.update({ state: 'Idle', status: { code: 1, string: 'Compromised - 1 peripheral initializing' } });
    const idle = await sut.probe(requestTo(core, settings));

    expect(fault).toMatchObject({
      outcome: 'answered',
      power: 'on',
      findings: [{ state: 'error', reason: 'Q-SYS: Fault - Amplifier AMP-1 missing' }],
    });
    expect(idle).toMatchObject({
      outcome: 'answered',
      power: 'on',
      findings: [
        { state: 'warning', reason: 'Q-SYS core idle: no design running' },
        { state: 'warning', reason: 'Q-SYS: Compromised - 1 peripheral initializing' },
      ],
    });
  });

  it('gives up on a port that accepts and never answers, and closes the connection', async () => {
    const silent = await startTcpSimulator({ host: SIMULATOR_HOST });
    try {
      const reading = await sut.probe(requestTo(silent, settings, { timeoutMs: 500 }));

      expect(reading).toEqual({ outcome: 'unreachable', findings: [], detail: 'No answer within 0.5 s' });
      await eventually(() => expect(silent.openConnections).toBe(0));
    } finally {
      await silent.close();
    }
  });

  it('stops waiting for an answer when the monitor stops it', async () => {
    const silent = await startTcpSimulator({ host: SIMULATOR_HOST });
    const controller = new AbortController();
    try {
      const probing = sut.probe(
        requestTo(silent, settings, { timeoutMs: 600_000, signal: controller.signal }),
      );
      await eventually(() => expect(silent.accepted).toBe(1));
      controller.abort();

      expect(await probing).toMatchObject({
        outcome: 'unreachable',
        detail: 'Probe stopped before the device answered',
      });
      await eventually(() => expect(silent.openConnections).toBe(0));
    } finally {
      await silent.close();
    }
  });
});
