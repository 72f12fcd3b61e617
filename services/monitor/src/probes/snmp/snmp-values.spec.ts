import { type SnmpOidCheck, snmpOidCheckSchema } from '@cm/contracts';
import * as snmp from 'net-snmp';
import { judgeValue, parseSysDescr, varbindValue } from './snmp-values';

const check = (over: Partial<SnmpOidCheck>): SnmpOidCheck =>
  snmpOidCheckSchema.parse({
    oid: '1.3.6.1.4.1.9999.1.0',
    label: 'Display temperature',
    operator: '>',
    ...over,
  });

describe(parseSysDescr.name, () => {
  it.each([
    ['Extron IN1608 xi, V1.12', { model: 'Extron IN1608 xi', firmware: '1.12' }],
    ['NEC MultiSync V554 firmware R1.305', { model: 'NEC MultiSync V554', firmware: '1.305' }],
    [
      'Crestron DM-NVX-350 Cntrl Eng [v6.2.4768.00042 (Nov 17 2021), #00A1B2C3]',
      { model: 'Crestron DM-NVX-350 Cntrl Eng', firmware: '6.2.4768.00042' },
    ],
    [
      'Cisco IOS Software, C2960 Software (C2960-LANBASEK9-M), Version 15.0(2)SE4, RELEASE SOFTWARE (fc1)',
      { model: 'Cisco IOS Software, C2960 Software (C2960-LANBASEK9-M)', firmware: '15.0(2)SE4' },
    ],
    ['Sony VPL-FHZ75', { model: 'Sony VPL-FHZ75' }],
  ])('reads %j', (sysDescr, expected) => {
    expect(parseSysDescr(sysDescr)).toEqual(expected);
  });

  it('guesses nothing from a description whose numbers it cannot place', () => {
    expect(parseSysDescr('Linux av-gw 5.10.0-8-amd64 #1 SMP Debian 5.10.46-4 x86_64')).toEqual({});
  });
});

describe(judgeValue.name, () => {
  it('judges the error threshold before the warning one', () => {
    const temperature = check({ warning: 60, error: 70 });
    expect(judgeValue(temperature, 55)).toBeUndefined();
    expect(judgeValue(temperature, 65)).toEqual({
      state: 'warning',
      reason: 'Display temperature 65 (warning above 60)',
    });
    expect(judgeValue(temperature, 72)).toEqual({
      state: 'error',
      reason: 'Display temperature 72 (error above 70)',
    });
  });

  it('compares numbers written as text as numbers', () => {
    const toner = check({ label: 'Toner', operator: '<=', warning: '10' });
    expect(judgeValue(toner, '9')).toEqual({ state: 'warning', reason: 'Toner 9 (warning at or below 10)' });
    expect(judgeValue(toner, '100')).toBeUndefined();
  });

  it('compares words only for equality', () => {
    const fan = check({ label: 'Fan', operator: '!=', error: 'ok' });
    expect(judgeValue(fan, 'failed')).toEqual({ state: 'error', reason: 'Fan failed (error when not ok)' });
    expect(judgeValue(fan, 'ok')).toBeUndefined();
    expect(judgeValue(check({ operator: '>', error: 'hot' }), 'hotter')).toBeUndefined();
  });

  it('warns when the device does not have the value', () => {
    expect(judgeValue(check({ error: 70 }), undefined)).toEqual({
      state: 'warning',
      reason: 'Display temperature not available from the device (OID 1.3.6.1.4.1.9999.1.0)',
    });
  });
});

describe(varbindValue.name, () => {
  it('reads text, numbers and binary octets as a person would', () => {
    const oid = '1.3.6.1.2.1.1.1.0';
    expect(varbindValue({ oid, type: snmp.ObjectType.OctetString, value: Buffer.from('Hall A') })).toBe(
      'Hall A',
    );
    expect(varbindValue({ oid, type: snmp.ObjectType.Gauge, value: 42 })).toBe(42);
    expect(
      varbindValue({ oid, type: snmp.ObjectType.OctetString, value: Buffer.from([0, 0x1b, 0xff]) }),
    ).toBe('00:1b:ff');
    expect(varbindValue({ oid, type: snmp.ObjectType.NoSuchObject, value: null })).toBeUndefined();
  });
});
