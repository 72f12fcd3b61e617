import {
  deepProbeRangeMessage,
  defaultProbeFor,
  ErrorCode,
  type EquipmentCreate,
  probeLabels,
  probeSecretNames,
  probeSecretsByType,
  type ProbeSecretName,
  type ProbeSecrets,
  type ProbeSettings,
  type ProbeView,
} from '@cm/contracts';
import { AppError } from '@cm/platform';

/** The probe as an equipment create or update carries it, checked: settings and write-only secrets. */
export type ProbeInput = NonNullable<EquipmentCreate['probe']>;

/** Each secret the equipment has, sealed (see `sealSecret`), by name. */
export type SealedSecrets = Partial<Record<ProbeSecretName, string>>;

export interface StoredProbe {
  ipAddress: string | null;
  model: string | null;
  type: string | null;
  settings: ProbeSettings;
  secrets: SealedSecrets;
}

const refused = (message: string, path = 'probe') =>
  new AppError(ErrorCode.VALIDATION_FAILED, message, [{ path, message }]);

/** The settings of a probe input, without its secrets. */
export function settingsOf(input: ProbeInput): ProbeSettings {
  const { secrets: _secrets, ...settings } = input as ProbeInput & { secrets?: unknown };
  return settings as ProbeSettings;
}

/**
 * The probe new equipment gets when its form chose none: its preset's or its type's, unless its
 * address is a range, which only ping can cover.
 */
export function defaultProbe(equipment: Pick<StoredProbe, 'ipAddress' | 'model' | 'type'>): ProbeSettings {
  const settings = defaultProbeFor(equipment);
  return isRange(equipment.ipAddress) ? { type: 'icmp' } : settings;
}

const isRange = (ipAddress: string | null) => Boolean(ipAddress?.includes('-'));

/** Refuses a probe beyond ping on a range of addresses, and secrets its protocol does not use. */
export function checkProbe(settings: ProbeSettings, ipAddress: string | null, secrets?: ProbeSecrets): void {
  if (settings.type !== 'icmp' && isRange(ipAddress)) throw refused(deepProbeRangeMessage, 'ipAddress');
  const used = probeSecretsByType[settings.type];
  const stray = probeSecretNames.find((name) => secrets?.[name] != null && !used.includes(name));
  if (!stray) return;
  const label = probeLabels[settings.type];
  const takes = used.length ? `only ${used.join(', ')}` : 'no secrets';
  throw refused(`A ${label} probe takes ${takes}, not ${stray}`, `probe.secrets.${stray}`);
}

/**
 * The secrets after a write: one given is sealed, null (or empty) clears it, one left out keeps
 * its value; those the probe type does not use are dropped (a PJLink password once the probe is
 * SNMP).
 */
export function nextSecrets(
  settings: ProbeSettings,
  current: SealedSecrets,
  given: ProbeSecrets | undefined,
  seal: (name: ProbeSecretName, value: string) => string,
): SealedSecrets {
  const next: SealedSecrets = {};
  for (const name of probeSecretsByType[settings.type]) {
    const value = given?.[name];
    if (value === undefined) {
      if (current[name]) next[name] = current[name];
    } else if (value) {
      next[name] = seal(name, value);
    }
  }
  return next;
}

/** What answers show of a probe: its settings, and which secrets are set, never their values. */
export function probeViewOf(settings: ProbeSettings, secretNames: readonly string[]): ProbeView {
  const set = new Set(secretNames);
  return { ...settings, secretsSet: probeSecretNames.filter((name) => set.has(name)) };
}

/** The sealed secret's owner: the equipment and the secret's name, so it opens nowhere else. */
export const secretOwner = (equipmentId: string, name: ProbeSecretName) => `${equipmentId}/probe/${name}`;
