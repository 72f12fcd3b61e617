import {
  defaultProbeFor,
  type ProbeInput,
  probePortOf,
  probeInputSchema,
  type ProbeSettings,
  type ProbeSecretName,
  type ProbeSecrets,
  type ProbeType,
  type ProbeView,
  PROBE_INTERVAL_DEFAULT_SECONDS,
  type SnmpOidCheck,
} from '@cm/contracts';
import { z } from 'zod';

/** What a person reads for each probe type. */
export const probeTypeLabels: Record<ProbeType, string> = {
  icmp: 'Ping only (ICMP)',
  pjlink: 'PJLink',
  snmp: 'SNMP',
  qsys: 'Q-SYS',
  extron: 'Extron',
  tcp: 'TCP port',
  http: 'HTTP(S)',
};

const oidFormSchema = z.object({
  label: z.string(),
  oid: z.string(),
  operator: z.string(),
  warning: z.string(),
  error: z.string(),
});
/** One administrator-defined SNMP value as the form holds it: every box is text. */
export type OidFormValues = z.infer<typeof oidFormSchema>;

const secretBoxes = z.object({
  password: z.string(),
  community: z.string(),
  authKey: z.string(),
  privKey: z.string(),
});
const clearFlags = z.object({
  password: z.boolean(),
  community: z.boolean(),
  authKey: z.boolean(),
  privKey: z.boolean(),
});

const probeFormValuesSchema = z.object({
  type: z.string(),
  port: z.string(),
  intervalSeconds: z.string(),
  version: z.string(),
  username: z.string(),
  securityLevel: z.string(),
  authProtocol: z.string(),
  privProtocol: z.string(),
  oids: z.array(oidFormSchema),
  https: z.boolean(),
  path: z.string(),
  lampRatedHours: z.string(),
  filterRatedHours: z.string(),
  /**
   * The settings as the server answered them, the form's and those it does not show (an HTTPS
   * certificate's warning days): a save of the same type keeps what the form does not change.
   */
  kept: z.record(z.string(), z.unknown()).optional(),
  /** Each secret's box, and whether it is to be cleared. */
  secrets: secretBoxes,
  clear: clearFlags,
});

/**
 * The probe as the form holds it: text boxes hold text. The settings of every type are kept while
 * another type is chosen, so switching back loses nothing; only the chosen type's are sent.
 */
export type ProbeFormValues = z.infer<typeof probeFormValuesSchema>;

const noSecrets = { password: '', community: '', authKey: '', privKey: '' };
const noneCleared = { password: false, community: false, authKey: false, privKey: false };

export const emptyOid: OidFormValues = { label: '', oid: '', operator: '>', warning: '', error: '' };

/**
 * New equipment's choice until a person makes one: no probe is sent, and the server chooses by
 * the preset product or the type (projectors PJLink, Q-SYS processors QRC, switches SNMP).
 */
export const AUTOMATIC = 'auto';

export const emptyProbe: ProbeFormValues = {
  type: AUTOMATIC,
  port: '',
  intervalSeconds: String(PROBE_INTERVAL_DEFAULT_SECONDS),
  version: '2c',
  username: '',
  securityLevel: 'authPriv',
  authProtocol: 'sha',
  privProtocol: 'aes',
  oids: [],
  https: false,
  path: '/',
  lampRatedHours: '',
  filterRatedHours: '',
  secrets: noSecrets,
  clear: noneCleared,
};

const text = (v: string | number | undefined) => (v === undefined ? '' : String(v));

/**
 * The form's values for a probe as the server answered it (ICMP when it names none), or as a
 * preset suggests it; secrets are never read back.
 */
export function probeValuesOf(probe: ProbeView | ProbeSettings = { type: 'icmp' }): ProbeFormValues {
  const { secretsSet: _secretsSet, ...kept } = { secretsSet: [], ...probe };
  const values: ProbeFormValues = {
    ...emptyProbe,
    kept,
    type: probe.type,
    port: text(probe.port),
    intervalSeconds: text(probe.intervalSeconds ?? PROBE_INTERVAL_DEFAULT_SECONDS),
  };
  switch (probe.type) {
    case 'snmp':
      return {
        ...values,
        version: probe.version,
        username: probe.username ?? '',
        securityLevel: probe.securityLevel ?? emptyProbe.securityLevel,
        authProtocol: probe.authProtocol ?? emptyProbe.authProtocol,
        privProtocol: probe.privProtocol ?? emptyProbe.privProtocol,
        oids: probe.oids.map((o) => ({ ...o, warning: text(o.warning), error: text(o.error) })),
      };
    case 'qsys':
      return { ...values, username: probe.username ?? '' };
    case 'pjlink':
      return {
        ...values,
        lampRatedHours: text(probe.lampRatedHours),
        filterRatedHours: text(probe.filterRatedHours),
      };
    case 'http':
      return {
        ...values,
        https: probe.https,
        path: probe.path,
      };
    default:
      return values;
  }
}

/** The secrets a probe of this type, version and security level uses. */
export function secretsUsed(
  v: Pick<ProbeFormValues, 'type' | 'version' | 'securityLevel'>,
): ProbeSecretName[] {
  switch (v.type) {
    case 'pjlink':
    case 'qsys':
    case 'extron':
      return ['password'];
    case 'snmp':
      if (v.version !== '3') return ['community'];
      if (v.securityLevel === 'authPriv') return ['authKey', 'privKey'];
      return v.securityLevel === 'authNoPriv' ? ['authKey'] : [];
    default:
      return [];
  }
}

/** A box left empty is no value; digits are a number; other words are compared as text. */
const numberOrText = (v: string): string | number | undefined => {
  const t = v.trim();
  if (t === '') return undefined;
  return /^-?\d+(\.\d+)?$/.test(t) ? Number(t) : t;
};
/** Empty is "not given"; anything else goes to the contract as a number, which judges it. */
const numberOf = (v: string) => (v.trim() === '' ? undefined : Number(v.trim()));
const given = (v: string) => (v.trim() === '' ? undefined : v);

/**
 * Write-only secrets: a value typed is sent, one cleared is sent as null, one left blank is left
 * out and keeps what the server holds.
 */
function secretsOf(v: ProbeFormValues): ProbeSecrets | undefined {
  const secrets: ProbeSecrets = {};
  for (const name of secretsUsed(v)) {
    if (v.clear[name]) secrets[name] = null;
    else if (v.secrets[name] !== '') secrets[name] = v.secrets[name];
  }
  return Object.keys(secrets).length > 0 ? secrets : undefined;
}

type SnmpInput = Extract<ProbeInput, { type: 'snmp' }>;

// The words of the list boxes are the contract's own; the contract judges them again below.
function snmpInputOf(v: ProbeFormValues): Omit<SnmpInput, 'type'> {
  const level = v.securityLevel as NonNullable<SnmpInput['securityLevel']>;
  const v3 = v.version === '3';
  return {
    version: v.version as SnmpInput['version'],
    username: v3 ? given(v.username) : undefined,
    securityLevel: v3 ? level : undefined,
    authProtocol: v3 && level !== 'noAuthNoPriv' ? (v.authProtocol as SnmpInput['authProtocol']) : undefined,
    privProtocol: v3 && level === 'authPriv' ? (v.privProtocol as SnmpInput['privProtocol']) : undefined,
    oids: v.oids.map((o) => ({
      label: o.label,
      oid: o.oid,
      operator: o.operator as SnmpOidCheck['operator'],
      warning: numberOrText(o.warning),
      error: numberOrText(o.error),
    })),
  };
}

/**
 * What the form sends as `probe`: the chosen type's settings over those it had and the form does
 * not show, and the secrets it changed. Nothing while new equipment's choice is automatic.
 */
export function probeInputOf(v: ProbeFormValues): ProbeInput | undefined {
  if (v.type === AUTOMATIC) return undefined;
  const shown = shownSettingsOf(v);
  return v.kept?.type === v.type ? ({ ...v.kept, ...shown } as ProbeInput) : shown;
}

function shownSettingsOf(v: ProbeFormValues): ProbeInput {
  if (v.type === 'icmp') return { type: 'icmp' };
  const base = { port: numberOf(v.port), intervalSeconds: numberOf(v.intervalSeconds) };
  const secrets = secretsOf(v);
  const withSecrets = secrets ? { secrets } : {};
  switch (v.type) {
    case 'snmp':
      return { type: 'snmp', ...base, ...snmpInputOf(v), ...withSecrets };
    case 'qsys':
      return { type: 'qsys', ...base, username: given(v.username), ...withSecrets };
    case 'pjlink': {
      const lampRatedHours = numberOf(v.lampRatedHours);
      const filterRatedHours = numberOf(v.filterRatedHours);
      return { type: 'pjlink', ...base, lampRatedHours, filterRatedHours, ...withSecrets };
    }
    case 'http': {
      const path = v.path.trim() === '' ? '/' : v.path;
      return { type: 'http', ...base, https: v.https, path };
    }
    default:
      return {
        type: v.type as Exclude<ProbeType, 'icmp' | 'snmp' | 'qsys' | 'http' | 'pjlink'>,
        ...base,
        ...withSecrets,
      };
  }
}

/**
 * The form's probe checked by the contract: what it would send is judged by `probeInputSchema`,
 * whose messages land on the boxes of the same names (`port`, `oids.0.label`, `secrets.authKey`).
 */
export const probeFormSchema = probeFormValuesSchema
  .transform(probeInputOf)
  .pipe(probeInputSchema.optional());

/**
 * A form that holds a probe under `probe`, beside the equipment's model, type and address that
 * choose the automatic one: what the probe's fields read from the form context.
 */
export interface ProbeHost {
  probe: ProbeFormValues;
  model?: string;
  type?: string;
  ipAddress?: string;
}

/**
 * The probe the server gives new equipment left on automatic: its preset's or its type's, but
 * ping only for an address range, which a deeper probe cannot cover.
 */
export function automaticProbe(equipment: Omit<ProbeHost, 'probe'>): ProbeSettings {
  if (equipment.ipAddress?.includes('-')) return { type: 'icmp' };
  return defaultProbeFor(equipment);
}

/** "Automatic: PJLink", "Automatic: TCP port 41794". */
export function automaticLabel(probe: ProbeSettings): string {
  const name = probe.type === 'tcp' ? `TCP port ${probePortOf(probe)}` : probeTypeLabels[probe.type];
  return `Automatic: ${name}`;
}
