import { PROBE_INTERVAL_MIN_SECONDS, type ProbeInput } from '@cm/contracts';
import {
  type ExtronSimulator,
  type PjlinkSimulator,
  type SnmpSimulator,
  startExtronSimulator,
  startPjlinkSimulator,
  startSnmpSimulator,
} from '@cm/simulators';

/**
 * Loopback addresses of the device health system test's own (no other test listens on
 * 127.0.62.0/24), so each simulator can listen on its protocol's usual port, as a device does.
 */
export const healthHost = (n: number) => `127.0.62.${n}`;

/** The secrets the test gives its probes: none may ever come back out of the system. */
export const secrets = {
  projectorPassword: 'lectern-7731',
  wrongPassword: 'guessed-0000',
  lockedPassword: 'vendor-set-4412',
  authKey: 'auth-sha-key-9023',
  privKey: 'priv-aes-key-5518',
} as const;

export const SNMP_PORT = 16161;
export const SIS_PORT = 2001;
export const SWITCHER_MODEL = 'DXP 84 HD 4K PLUS';
/** The projector lamp's rated life, and the hours its lamp warning comes on at. */
export const LAMP_RATED_HOURS = 3000;
export const LAMP_WARNING_HOURS = 2900;

export interface HealthDevices {
  /** PJLink class 2 with a password, which its equipment knows. */
  projector: PjlinkSimulator;
  /** PJLink with a password its equipment gets wrong. */
  locked: PjlinkSimulator;
  /** PJLink whose lamp nears its rated life. */
  worn: PjlinkSimulator;
  /** SNMP v3 with an authPriv user (SHA, AES). */
  display: SnmpSimulator;
  /** Two Extron switchers of one model and firmware. */
  switcherA: ExtronSimulator;
  switcherB: ExtronSimulator;
}

export async function startHealthDevices(): Promise<HealthDevices> {
  const devices: Partial<HealthDevices> = {};
  try {
    devices.projector = await startPjlinkSimulator({
      host: healthHost(1),
      port: 4352,
      class: 2,
      password: secrets.projectorPassword,
      power: 'on',
      lamps: [{ hours: 1234, on: true }],
      filterHours: 321,
      manufacturer: 'EPSON',
      model: 'EB-L1070U',
      serial: 'X3JK8800123',
      firmware: '1.02',
      replacementLamp: 'ELPLP97',
    });
    devices.locked = await startPjlinkSimulator({
      host: healthHost(2),
      port: 4352,
      class: 1,
      password: secrets.lockedPassword,
    });
    // 127.0.62.3 answers ping (every loopback address does) but nothing listens for PJLink there.
    devices.worn = await startPjlinkSimulator({
      host: healthHost(4),
      port: 4352,
      class: 1,
      power: 'on',
      lamps: [{ hours: 2600, on: true }],
      ageing: { lampWarningHours: LAMP_WARNING_HOURS },
    });
    devices.display = await startSnmpSimulator({
      host: healthHost(5),
      port: SNMP_PORT,
      community: 'not-used-here',
      v3Users: [
        {
          name: 'monitor',
          level: 'authPriv',
          authProtocol: 'sha',
          authKey: secrets.authKey,
          privProtocol: 'aes',
          privKey: secrets.privKey,
        },
      ],
      sysDescr: 'Samsung QM85R, firmware V1.12',
      sysName: 'Hall display',
      // A day up: a restart shows as the counter going back.
      uptimeSeconds: 86_400,
    });
    const switcher = { port: SIS_PORT, model: SWITCHER_MODEL, firmware: '1.04', partNumber: '60-1495-01' };
    devices.switcherA = await startExtronSimulator({ host: healthHost(6), ...switcher });
    devices.switcherB = await startExtronSimulator({ host: healthHost(7), ...switcher });
    return devices as HealthDevices;
  } catch (error) {
    await closeHealthDevices(devices);
    throw error;
  }
}

export async function closeHealthDevices(devices: Partial<HealthDevices>): Promise<void> {
  await Promise.allSettled(Object.values(devices).map((device) => device?.close()));
}

const every = { intervalSeconds: PROBE_INTERVAL_MIN_SECONDS };

/** The equipment that watches each device, by a short name the tests use. */
export const healthEquipment = {
  // No model nor serial number: the probe fills them.
  projector: {
    name: 'Hall projector',
    type: 'Projector',
    ipAddress: healthHost(1),
    probe: { type: 'pjlink', ...every, secrets: { password: secrets.projectorPassword } },
  },
  locked: {
    name: 'Locked projector',
    type: 'Projector',
    ipAddress: healthHost(2),
    probe: { type: 'pjlink', ...every, secrets: { password: secrets.wrongPassword } },
  },
  spare: {
    name: 'Spare projector',
    type: 'Projector',
    ipAddress: healthHost(3),
    probe: { type: 'pjlink', ...every },
  },
  worn: {
    name: 'Worn projector',
    type: 'Projector',
    ipAddress: healthHost(4),
    probe: { type: 'pjlink', ...every, lampRatedHours: LAMP_RATED_HOURS },
  },
  display: {
    name: 'Hall display',
    type: 'Display',
    ipAddress: healthHost(5),
    probe: {
      type: 'snmp',
      port: SNMP_PORT,
      ...every,
      version: '3',
      username: 'monitor',
      securityLevel: 'authPriv',
      authProtocol: 'sha',
      privProtocol: 'aes',
      secrets: { authKey: secrets.authKey, privKey: secrets.privKey },
    },
  },
  switcherA: {
    name: 'Switcher A',
    type: 'Matrix switcher',
    ipAddress: healthHost(6),
    probe: { type: 'extron', port: SIS_PORT, ...every },
  },
  switcherB: {
    name: 'Switcher B',
    type: 'Matrix switcher',
    ipAddress: healthHost(7),
    probe: { type: 'extron', port: SIS_PORT, ...every },
  },
} satisfies Record<string, { name: string; type: string; ipAddress: string; probe: ProbeInput }>;

export type HealthEquipmentName = keyof typeof healthEquipment;
