import { eventually } from '@cm/platform/testing';
import { startExtronSimulator, type ExtronSimulator, type ExtronSimulatorOptions } from '@cm/simulators';
import { ExtronProbe } from '../src/probes/extron/extron.probe';
import { SIMULATOR_HOST, requestTo } from './probe-support';

describe(ExtronProbe.name, () => {
  const sut = new ExtronProbe();
  const settings = { type: 'extron' as const };
  const devices: ExtronSimulator[] = [];
  const startDevice = async (over: Partial<ExtronSimulatorOptions> = {}) => {
    const device = await startExtronSimulator({
      host: SIMULATOR_HOST,
      model: 'DXP 84 HD 4K PLUS',
      firmware: '1.05',
      partNumber: '60-1495-01',
      ...over,
    });
    devices.push(device);
    return device;
  };
  afterEach(() => Promise.all(devices.splice(0).map((d) => d.close())));

  const identified = {
    outcome: 'answered',
    findings: [],
    durationMs: expect.any(Number),
    model: 'DXP 84 HD 4K PLUS',
    firmware: '1.05',
    values: { 'Part number': '60-1495-01' },
  };

  it('reads model, firmware and part number from a device without a password', async () => {
    const device = await startDevice();

    expect(await sut.probe(requestTo(device, settings))).toEqual(identified);
  });

  it('logs in with the password when the device asks for one', async () => {
    const device = await startDevice({ password: 'extron-42', firmware: '2.11.0003' });

    const reading = await sut.probe(requestTo(device, settings, { secrets: { password: 'extron-42' } }));

    expect(reading).toEqual({ ...identified, firmware: '2.11.0003' });
  });

  it('says the password is wrong when the device asks again', async () => {
    const device = await startDevice({ password: 'extron-42' });

    const reading = await sut.probe(requestTo(device, settings, { secrets: { password: 'extron-24' } }));

    expect(reading).toEqual({
      outcome: 'auth-failed',
      findings: [],
      durationMs: expect.any(Number),
      detail: 'Wrong Extron password',
    });
  });

  it('reads model and firmware from the banner when the device asks for a password none is set for', async () => {
    const device = await startDevice({ password: 'extron-42' });

    const reading = await sut.probe(requestTo(device, settings));

    expect(reading).toEqual(identified);
  });

  it('reads a firmware update on the next probe', async () => {
    const device = await startDevice();
    await sut.probe(requestTo(device, settings));
    device.update({ firmware: '1.06' });

    expect(await sut.probe(requestTo(device, settings))).toMatchObject({
      outcome: 'answered',
      firmware: '1.06',
    });
  });

  it('closes its connection whichever way the probe ends', async () => {
    const locked = await startDevice({ password: 'extron-42' });
    const open = await startDevice();

    await sut.probe(requestTo(locked, settings, { secrets: { password: 'wrong' } }));
    await sut.probe(requestTo(open, settings));

    // Devices take few telnet sessions at once: a probe must not keep one.
    await eventually(() => expect([locked.openConnections, open.openConnections]).toEqual([0, 0]));
  });
});
