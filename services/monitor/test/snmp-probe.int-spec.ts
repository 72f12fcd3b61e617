import { createSocket } from 'node:dgram';
import { type ProbeSettingsInput, probeSettingsSchema } from '@cm/contracts';
import { type SnmpSimulator, type SnmpSimulatorOptions, startSnmpSimulator } from '@cm/simulators';
import { SnmpProbe } from '../src/probes/snmp/snmp.probe';
import type { SnmpRequest } from '../src/probes/snmp/snmp-session';

/** Real UDP on loopback: net-snmp's agent as the device, the probe as the monitor runs it. */
describe(SnmpProbe.name, () => {
  const host = '127.0.36.1';
  const sut = new SnmpProbe();
  const simulators: SnmpSimulator[] = [];
  const operator = {
    name: 'av-ops',
    level: 'authPriv',
    authProtocol: 'sha',
    authKey: 'lecture-hall-auth',
    privProtocol: 'aes',
    privKey: 'lecture-hall-priv',
  } as const;
  const TEMPERATURE = '1.3.6.1.4.1.9999.1.1.0';

  const start = async (over: Partial<SnmpSimulatorOptions> = {}) => {
    const simulator = await startSnmpSimulator({
      host,
      port: 0,
      sysDescr: 'Extron IN1608 xi, V1.12',
      sysName: 'hall-a-switcher',
      v3Users: [operator],
      ...over,
    });
    simulators.push(simulator);
    return simulator;
  };
  const request = (
    at: { host: string; port: number },
    settings: Partial<Extract<ProbeSettingsInput, { type: 'snmp' }>> = {},
    over: Partial<SnmpRequest> = {},
  ): SnmpRequest => ({
    address: at.host,
    port: at.port,
    settings: probeSettingsSchema.parse({ type: 'snmp', ...settings }) as SnmpRequest['settings'],
    secrets: { community: 'public' },
    timeoutMs: 3000,
    ...over,
  });
  const v3 = {
    version: '3',
    username: operator.name,
    securityLevel: 'authPriv',
    authProtocol: 'sha',
    privProtocol: 'aes',
  } as const;
  const v3Keys = { authKey: operator.authKey, privKey: operator.privKey };

  afterEach(async () => {
    await Promise.all(simulators.splice(0).map((s) => s.close()));
  });

  it('reads the name, model, firmware and uptime over v2c, and ignores an interface switched off', async () => {
    const device = await start({
      uptimeSeconds: 3600,
      interfaces: [{ name: 'LAN' }, { name: 'HDMI out', admin: 'down', oper: 'down' }],
    });

    const result = await sut.probe(request(device));

    expect(result).toMatchObject({
      outcome: 'answered',
      findings: [],
      deviceName: 'hall-a-switcher',
      model: 'Extron IN1608 xi',
      firmware: '1.12',
      detail: 'Extron IN1608 xi, V1.12',
    });
    expect(result.uptimeSeconds).toBeGreaterThanOrEqual(3600);
  });

  it('warns of an enabled interface that went down', async () => {
    const device = await start({ interfaces: [{ name: 'LAN' }, { name: 'Dante' }, { name: 'HDMI out' }] });
    device.setInterface(3, { oper: 'down' });

    const result = await sut.probe(request(device));

    expect(result.outcome).toBe('answered');
    expect(result.findings).toEqual([{ state: 'warning', reason: 'Interface 3 (HDMI out) down' }]);
  });

  it('hears nothing with a wrong community and says so within its time', async () => {
    const device = await start({ community: 'campus-ro' });
    const timeoutMs = 500;
    const started = performance.now();

    const result = await sut.probe(request(device, {}, { secrets: { community: 'public' }, timeoutMs }));

    expect(result).toEqual({
      outcome: 'unreachable',
      findings: [],
      detail: 'No SNMP answer (wrong community or agent down)',
    });
    // Generous: what matters is that it does not wait for net-snmp's default 5 s and retry.
    expect(performance.now() - started).toBeLessThan(timeoutMs + 4000);
  });

  it('does not ask without a community', async () => {
    const device = await start();
    expect(await sut.probe(request(device, {}, { secrets: {} }))).toEqual({
      outcome: 'auth-failed',
      findings: [],
      detail: 'SNMP community not set',
    });
  });

  it('reads over v3 with an authPriv user (SHA and AES)', async () => {
    const device = await start({ community: 'not-this-one' });

    const result = await sut.probe(request(device, v3, { secrets: v3Keys }));

    expect(result).toMatchObject({
      outcome: 'answered',
      findings: [],
      deviceName: 'hall-a-switcher',
      firmware: '1.12',
    });
  });

  it('tells a wrong v3 key and an unknown user from a device that is down', async () => {
    const device = await start();

    const wrongKey = await sut.probe(
      request(device, v3, { secrets: { ...v3Keys, authKey: 'not-the-auth-key' } }),
    );
    const unknown = await sut.probe(request(device, { ...v3, username: 'intruder' }, { secrets: v3Keys }));

    expect(wrongKey).toEqual({
      outcome: 'auth-failed',
      findings: [],
      detail: 'SNMP v3 credentials refused (wrong key)',
    });
    expect(unknown).toEqual({
      outcome: 'auth-failed',
      findings: [],
      detail: 'SNMP v3 credentials refused (unknown user)',
    });
  });

  it('reads a lower uptime after the device restarts', async () => {
    const device = await start({ uptimeSeconds: 86_400 });
    const before = await sut.probe(request(device));

    device.reboot();
    const after = await sut.probe(request(device));

    expect(before.uptimeSeconds).toBeGreaterThanOrEqual(86_400);
    expect(after.uptimeSeconds).toBeLessThan(before.uptimeSeconds!);
  });

  it('judges an administrator value against its warning and error thresholds', async () => {
    const device = await start({ extraOids: { [TEMPERATURE]: 55 } });
    const settings = {
      oids: [
        { oid: TEMPERATURE, label: 'Display temperature', operator: '>' as const, warning: 60, error: 70 },
      ],
    };

    const cool = await sut.probe(request(device, settings));
    device.set(TEMPERATURE, 65);
    const warm = await sut.probe(request(device, settings));
    device.set(TEMPERATURE, 72);
    const hot = await sut.probe(request(device, settings));

    expect(cool).toMatchObject({ outcome: 'answered', findings: [], values: { 'Display temperature': 55 } });
    expect(warm.findings).toEqual([
      { state: 'warning', reason: 'Display temperature 65 (warning above 60)' },
    ]);
    expect(hot).toMatchObject({
      findings: [{ state: 'error', reason: 'Display temperature 72 (error above 70)' }],
      values: { 'Display temperature': 72 },
    });
  });

  describe('with nothing listening', () => {
    let silent: { host: string; port: number };
    beforeAll(async () => {
      // A port just released: nothing answers there.
      const socket = createSocket('udp4');
      await new Promise<void>((resolve) => socket.bind(0, host, resolve));
      silent = { host, port: socket.address().port };
      await new Promise<void>((resolve) => socket.close(resolve));
    });

    it('answers unreachable within its time', async () => {
      const timeoutMs = 500;
      const started = performance.now();

      const result = await sut.probe(request(silent, v3, { secrets: v3Keys, timeoutMs }));

      expect(result).toEqual({ outcome: 'unreachable', findings: [], detail: 'No SNMP answer (agent down)' });
      expect(performance.now() - started).toBeLessThan(timeoutMs + 4000);
    });

    it('stops when the monitor lets the device go', async () => {
      const controller = new AbortController();
      const probing = sut.probe(request(silent, {}, { signal: controller.signal, timeoutMs: 60_000 }));
      controller.abort();

      expect(await probing).toEqual({
        outcome: 'unreachable',
        findings: [],
        detail: 'Probe stopped before the device answered',
      });
    });
  });
});
