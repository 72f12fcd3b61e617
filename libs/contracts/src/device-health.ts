import { z } from 'zod';
import { idSchema, timestampSchema } from './common';

/**
 * Device health beyond ping: what a probe reads from a device over its own protocol (PJLink,
 * SNMP, Q-SYS QRC, Extron SIS, a TCP connect or an HTTP request) and what the product makes of
 * it. ICMP stays the default probe; the ping sweep and the spec's statuses are unchanged by this.
 */

export const probeTypes = ['icmp', 'pjlink', 'snmp', 'qsys', 'extron', 'tcp', 'http'] as const;
export const probeTypeSchema = z.enum(probeTypes, {
  message: `Probe type must be one of: ${probeTypes.join(', ')}`,
});
export type ProbeType = z.infer<typeof probeTypeSchema>;

/** The port each protocol listens on unless the probe names another. */
export const defaultProbePorts: Record<Exclude<ProbeType, 'icmp'>, number> = {
  pjlink: 4352,
  snmp: 161,
  qsys: 1710,
  extron: 23,
  tcp: 80,
  http: 80,
};

/** HTTPS's port, where an HTTP probe with `https` names none. */
export const DEFAULT_HTTPS_PORT = 443;

/** The port a probe connects to: the one it names, else its protocol's; none for ICMP. */
export function probePortOf(probe: { type: ProbeType; port?: number; https?: boolean }): number | undefined {
  if (probe.type === 'icmp') return undefined;
  if (probe.port !== undefined) return probe.port;
  return probe.type === 'http' && probe.https ? DEFAULT_HTTPS_PORT : defaultProbePorts[probe.type];
}

export const PROBE_INTERVAL_DEFAULT_SECONDS = 300;
/** PJLink devices accept one connection at a time and may take 2 s to answer: never faster. */
export const PROBE_INTERVAL_MIN_SECONDS = 10;
export const PROBE_INTERVAL_MAX_SECONDS = 86_400;
/** Administrator-defined SNMP values per device. */
export const SNMP_OIDS_MAX = 20;

const port = z
  .number({ message: 'Port must be a number' })
  .int({ message: 'Port must be a whole number' })
  .min(1, { message: 'Port must be between 1 and 65535' })
  .max(65_535, { message: 'Port must be between 1 and 65535' });

const intervalSeconds = z
  .number({ message: 'Probe interval must be a number of seconds' })
  .int({ message: 'Probe interval must be a whole number of seconds' })
  .min(PROBE_INTERVAL_MIN_SECONDS, {
    message: `Probe interval must be at least ${PROBE_INTERVAL_MIN_SECONDS} seconds`,
  })
  .max(PROBE_INTERVAL_MAX_SECONDS, { message: 'Probe interval must be at most one day (86400 seconds)' });

/** A dotted numeric OID such as 1.3.6.1.2.1.1.3.0 (a leading dot is accepted and dropped). */
export const oidSchema = z
  .string({ message: 'OID must be text' })
  .trim()
  .overwrite((v) => v.replace(/^\./, ''))
  .refine((v) => /^[0-2](\.\d{1,10}){1,127}$/.test(v), {
    message: 'OID must be numbers separated by dots, such as 1.3.6.1.2.1.1.3.0',
  });

export const comparisonOperators = ['>', '>=', '<', '<=', '=', '!='] as const;

/**
 * One administrator-defined SNMP value and when it is a warning or an error: `value <op> warning`
 * gives a warning, `value <op> error` an error (the error is judged first). A display's
 * temperature `> 60` warns, `> 70` errs; a toner level `< 10` warns.
 */
export const snmpOidCheckSchema = z.object({
  oid: oidSchema,
  label: z.string().trim().min(1, { message: 'Each SNMP value needs a label' }).max(60),
  operator: z.enum(comparisonOperators, {
    message: `Comparison must be one of: ${comparisonOperators.join(' ')}`,
  }),
  warning: z.union([z.number(), z.string().max(120)]).optional(),
  error: z.union([z.number(), z.string().max(120)]).optional(),
});
export type SnmpOidCheck = z.infer<typeof snmpOidCheckSchema>;

export const snmpAuthProtocols = ['md5', 'sha', 'sha224', 'sha256', 'sha384', 'sha512'] as const;
export const snmpPrivProtocols = ['des', 'aes', 'aes256b', 'aes256r'] as const;
export const snmpSecurityLevels = ['noAuthNoPriv', 'authNoPriv', 'authPriv'] as const;

const httpPath = z
  .string()
  .trim()
  .max(2048)
  .refine((v) => v.startsWith('/'), { message: 'HTTP path must start with /' })
  // What Node sends in a request line as it is (it refuses the rest): printable, no spaces.
  .refine((v) => /^[\u0021-\u00ff]*$/.test(v), {
    message:
      'HTTP path must not contain spaces or special characters; write them encoded, such as %20 for a space',
  });

const ratedHours = z
  .number({ message: 'Rated life must be a number of hours' })
  .int({ message: 'Rated life must be a whole number of hours' })
  .min(1, { message: 'Rated life must be at least 1 hour' })
  .max(200_000, { message: 'Rated life must be at most 200000 hours' });

/**
 * Settings that are not secret, by probe type. Secrets (passwords, the SNMP community, v3 keys)
 * travel apart, in `ProbeSecrets`: written, never read back.
 */
const probeBase = { port: port.optional(), intervalSeconds: intervalSeconds.optional() };
export const probeSettingsSchema = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.literal('icmp'), ...probeBase }),
    z.object({
      type: z.literal('pjlink'),
      ...probeBase,
      /** The lamp's rated life (the lamp maker's figure), for the lamp warning and its forecast. */
      lampRatedHours: ratedHours.optional(),
      /** The filter's rated life, when the maker gives one. */
      filterRatedHours: ratedHours.optional(),
    }),
    z.object({
      type: z.literal('snmp'),
      ...probeBase,
      version: z.enum(['2c', '3'], { message: 'SNMP version must be 2c or 3' }).default('2c'),
      /** v3 only. */
      username: z.string().trim().max(64).optional(),
      securityLevel: z.enum(snmpSecurityLevels).optional(),
      authProtocol: z.enum(snmpAuthProtocols).optional(),
      privProtocol: z.enum(snmpPrivProtocols).optional(),
      oids: z
        .array(snmpOidCheckSchema)
        .max(SNMP_OIDS_MAX, { message: `At most ${SNMP_OIDS_MAX} SNMP values per device` })
        .default([]),
    }),
    z.object({ type: z.literal('qsys'), ...probeBase, username: z.string().trim().max(64).optional() }),
    z.object({ type: z.literal('extron'), ...probeBase }),
    z.object({ type: z.literal('tcp'), ...probeBase }),
    z.object({
      type: z.literal('http'),
      ...probeBase,
      https: z.boolean().default(false),
      path: httpPath.default('/'),
      /** Days before a TLS certificate's expiry that give a warning. */
      certificateWarningDays: z.number().int().min(1).max(365).default(21),
    }),
  ],
  { message: `Probe type must be one of: ${probeTypes.join(', ')}` },
);
export type ProbeSettings = z.infer<typeof probeSettingsSchema>;
export type ProbeSettingsInput = z.input<typeof probeSettingsSchema>;

export const probeSecretNames = ['password', 'community', 'authKey', 'privKey'] as const;
export type ProbeSecretName = (typeof probeSecretNames)[number];

/** The secrets each probe type uses (SNMP: the v2c community, or the v3 keys). */
export const probeSecretsByType: Record<ProbeType, readonly ProbeSecretName[]> = {
  icmp: [],
  pjlink: ['password'],
  snmp: ['community', 'authKey', 'privKey'],
  qsys: ['password'],
  extron: ['password'],
  tcp: [],
  http: [],
};

/** Each protocol's name as a person reads it, in health reasons and on screens. */
export const probeLabels: Record<ProbeType, string> = {
  icmp: 'ping',
  pjlink: 'PJLink',
  snmp: 'SNMP',
  qsys: 'Q-SYS',
  extron: 'Extron SIS',
  tcp: 'TCP',
  http: 'HTTP',
};

/** A probe beyond ping needs one address: ranges are pinged, never deep-probed. */
export const deepProbeRangeMessage = 'Deep probes need a single IP address, not a range';

/**
 * Write-only: a secret given is sealed and stored, `null` clears it, one left out keeps its value.
 * PJLink, QRC and SIS use `password`; SNMP v2c `community`; SNMP v3 `authKey` and `privKey`.
 */
export const probeSecretsSchema = z
  .object({
    password: z.string().max(128).nullable(),
    community: z.string().max(128).nullable(),
    authKey: z.string().min(8, { message: 'SNMP v3 keys must be at least 8 characters' }).max(128).nullable(),
    privKey: z.string().min(8, { message: 'SNMP v3 keys must be at least 8 characters' }).max(128).nullable(),
  })
  .partial();
export type ProbeSecrets = z.infer<typeof probeSecretsSchema>;

/** What equipment create and update accept as `probe`: settings plus write-only secrets. */
export const probeInputSchema = z.intersection(
  probeSettingsSchema,
  z.object({ secrets: probeSecretsSchema.optional() }),
);
export type ProbeInput = z.input<typeof probeInputSchema>;

/** What equipment answers carry as `probe`: the settings, and which secrets are set (never their values). */
export const probeViewSchema = z.intersection(
  probeSettingsSchema,
  z.object({ secretsSet: z.array(z.enum(probeSecretNames)) }),
);
export type ProbeView = z.infer<typeof probeViewSchema>;

export const healthStates = ['ok', 'warning', 'error', 'unknown'] as const;
export const healthStateSchema = z.enum(healthStates);
export type HealthState = z.infer<typeof healthStateSchema>;

/** PJLink's POWR answers, and what the other protocols map to them. */
export const powerStates = ['off', 'on', 'cooling', 'warming', 'standby'] as const;
export const powerStateSchema = z.enum(powerStates);
export type PowerState = z.infer<typeof powerStateSchema>;

export const lampSchema = z.object({
  hours: z.number().int().nonnegative(),
  on: z.boolean(),
  /** Rated life in hours, when the model's is known. */
  ratedHours: z.number().int().positive().optional(),
});
export type Lamp = z.infer<typeof lampSchema>;

/**
 * What equipment answers carry as `health` (null before a probe other than ICMP first answered).
 * `reasons` are plain words for a person: "Lamp 1 at 2,950 of 3,000 hours", "Filter warning",
 * "Wrong PJLink password".
 */
export const deviceHealthSchema = z.object({
  state: healthStateSchema,
  reasons: z.array(z.string()),
  power: powerStateSchema.optional(),
  lamps: z.array(lampSchema).optional(),
  filterHours: z.number().int().nonnegative().optional(),
  input: z.string().optional(),
  model: z.string().optional(),
  serial: z.string().optional(),
  firmware: z.string().optional(),
  /** When the device last restarted, as its uptime counter going back showed. */
  rebootedAt: timestampSchema.optional(),
  checkedAt: timestampSchema,
  /** The day the busiest lamp reaches its rated life at the last 30 days' use (YYYY-MM-DD). */
  lampReplaceBy: z.string().optional(),
});
export type DeviceHealth = z.infer<typeof deviceHealthSchema>;

/**
 * How a probe ended. `unreachable`: no connection or no answer in time; `auth-failed`: the device
 * answered and refused the credentials (PJLink's ERRA) — the device is there, the setting is wrong.
 */
export const probeOutcomes = ['answered', 'unreachable', 'auth-failed', 'protocol-error'] as const;
export const probeOutcomeSchema = z.enum(probeOutcomes);
export type ProbeOutcome = z.infer<typeof probeOutcomeSchema>;

/** One finding of a probe, judged by the probe from the device's own words. */
export const probeFindingSchema = z.object({
  state: z.enum(['ok', 'warning', 'error']),
  /** Plain words, as `DeviceHealth.reasons`. */
  reason: z.string().max(200),
});
export type ProbeFinding = z.infer<typeof probeFindingSchema>;

/**
 * One probe's reading of one device, as the monitor publishes it (in batches, on JetStream) and
 * inventory turns into `DeviceHealth`. Judgements that need history (a reboot from uptime going
 * back, lamp forecasts, firmware changes) are inventory's.
 */
export const probeReadingSchema = z.object({
  equipmentId: idSchema,
  probeType: probeTypeSchema,
  checkedAt: timestampSchema,
  outcome: probeOutcomeSchema,
  /** Answer time in ms, when the device answered. */
  durationMs: z.number().nonnegative().optional(),
  /** Problems the device itself reports (ERST, QRC status, an OID past its threshold, HTTP 5xx). */
  findings: z.array(probeFindingSchema).max(50),
  power: powerStateSchema.optional(),
  lamps: z
    .array(lampSchema.omit({ ratedHours: true }))
    .max(8)
    .optional(),
  filterHours: z.number().int().nonnegative().optional(),
  input: z.string().max(120).optional(),
  model: z.string().max(120).optional(),
  serial: z.string().max(120).optional(),
  firmware: z.string().max(120).optional(),
  /** Device name as the device reports it (PJLink NAME, SNMP sysName, QRC design name). */
  deviceName: z.string().max(200).optional(),
  /** SNMP sysUpTime or QRC uptime, in seconds: a value lower than the last means a reboot. */
  uptimeSeconds: z.number().nonnegative().optional(),
  /** Replacement lamp and filter models (PJLink RLMP/RFIL). */
  replacementLamp: z.string().max(120).optional(),
  replacementFilter: z.string().max(120).optional(),
  /** HTTPS: when the certificate expires. */
  certificateExpiresAt: timestampSchema.optional(),
  /** Administrator-defined SNMP values as read, by label. */
  values: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
  /** Why it was not answered, for the log and the reasons ("Connection refused on port 4352"). */
  detail: z.string().max(300).optional(),
});
export type ProbeReading = z.infer<typeof probeReadingSchema>;

export const PROBE_BATCH_MAX_READINGS = 200;

/** What travels on `monitor.health.probed`: readings of one probing round, up to 200. */
export const probeBatchSchema = z.object({
  batchId: z.string().min(1).max(64),
  readings: z.array(probeReadingSchema).min(1).max(PROBE_BATCH_MAX_READINGS),
});
export type ProbeBatch = z.infer<typeof probeBatchSchema>;

/**
 * One equipment the monitor probes beyond ping, with its secrets unsealed: sent only over
 * authenticated NATS, to the monitor (`inventory.equipment.probeTargets`).
 */
export const probeTargetSchema = z.object({
  equipmentId: idSchema,
  /** The equipment's address (a single address: ranges are pinged, never deep-probed). */
  address: z.string(),
  probe: probeSettingsSchema,
  secrets: z.object({
    password: z.string().optional(),
    community: z.string().optional(),
    authKey: z.string().optional(),
    privKey: z.string().optional(),
  }),
});
export type ProbeTarget = z.infer<typeof probeTargetSchema>;

export const probeTargetsPageSchema = z.object({
  items: z.array(probeTargetSchema),
  /** Pass as `after` for the next page; null on the last page. */
  nextCursor: idSchema.nullable(),
});
export type ProbeTargetsPage = z.infer<typeof probeTargetsPageSchema>;

/** A device as the fleet view lists it. */
export const fleetDeviceSchema = z.object({
  equipmentId: idSchema,
  name: z.string(),
  roomId: idSchema,
  roomName: z.string(),
  buildingName: z.string(),
  model: z.string().nullable(),
  firmware: z.string().nullable(),
});
export type FleetDevice = z.infer<typeof fleetDeviceSchema>;

/**
 * `GET /api/fleet`: firmware versions per model (the newest seen, and the devices not on it), and
 * the devices that restarted in the last 24 hours.
 */
export const fleetSchema = z.object({
  models: z.array(
    z.object({
      model: z.string(),
      /** The highest version seen on this model, compared number by number ("1.10" after "1.9"). */
      newestFirmware: z.string(),
      versions: z.array(z.object({ firmware: z.string(), devices: z.number().int().nonnegative() })),
      behind: z.array(fleetDeviceSchema),
    }),
  ),
  rebooted: z.array(fleetDeviceSchema.extend({ rebootedAt: timestampSchema })),
});
export type Fleet = z.infer<typeof fleetSchema>;
