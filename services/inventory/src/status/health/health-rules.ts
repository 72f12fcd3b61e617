import {
  type HealthState,
  type PowerState,
  probeLabels,
  probePortOf,
  type ProbeReading,
  type ProbeSettings,
  type ProbeType,
} from '@cm/contracts';
import { ratedLivesOf } from '../../shared/health/health-view';

/** A consumable past this share of its rated life is a warning. */
export const RATED_LIFE_WARNING = 0.9;

/** What `equipment_health` holds of a device: its health now, and what the next reading is judged against. */
export interface HealthRecord {
  equipmentId: string;
  state: HealthState;
  reasons: string[];
  outcome: ProbeReading['outcome'];
  probeType: ProbeType;
  authFailed: boolean;
  power: PowerState | null;
  lamps: { hours: number; on: boolean }[] | null;
  filterHours: number | null;
  input: string | null;
  model: string | null;
  serial: string | null;
  firmware: string | null;
  replacementLamp: string | null;
  replacementFilter: string | null;
  uptimeSeconds: number | null;
  /** Epoch ms, as every time here. */
  uptimeReadAt: number | null;
  rebootedAt: number | null;
  checkedAt: number;
  stateSince: number;
  /** The UTC day (YYYY-MM-DD) of the last lamp and filter hours sample. */
  lampSampledOn: string | null;
  lampRates: (number | null)[] | null;
  filterRate: number | null;
}

/** What one reading changed, beyond the record itself. */
export interface Judged {
  record: HealthRecord;
  /** The state, or what its reasons say (their figures aside), changed: a new span of the timeline. */
  stateChanged: boolean;
  rebooted: boolean;
  /** A firmware seen for the first time or changed. */
  firmwareChange: { from: string | null; to: string } | null;
  /** The device's first reading of a UTC day with lamp or filter hours: the day's sample is due. */
  sampleDay: string | null;
}

/**
 * Judges one reading against the device's previous record and its probe settings. The probe
 * judged the device's own words (its findings); the judgements that need history or settings are
 * made here: a reboot from its uptime going back, lamp and filter life against the rated hours,
 * a firmware change.
 */
export function judge(
  reading: ProbeReading,
  previous: HealthRecord | null,
  settings: ProbeSettings | null,
): Judged {
  const checkedAt = Date.parse(reading.checkedAt);
  const answered = reading.outcome === 'answered';
  const kept = <K extends keyof HealthRecord>(key: K): HealthRecord[K] | null => previous?.[key] ?? null;
  const lamps = answered && reading.lamps ? reading.lamps : kept('lamps');
  const filterHours = answered ? (reading.filterHours ?? kept('filterHours')) : kept('filterHours');
  const { state, reasons } = stateOf(reading, settings, lamps, filterHours);
  const uptime = uptimeOf(reading, previous, checkedAt);
  const firmware = answered ? (reading.firmware ?? kept('firmware')) : kept('firmware');
  const day = reading.checkedAt.slice(0, 10);
  const sampled = answered && (reading.lamps?.length || reading.filterHours !== undefined);
  const sampleDay = sampled && previous?.lampSampledOn !== day ? day : null;
  const stateChanged = !previous || previous.state !== state || gist(previous.reasons) !== gist(reasons);
  const record: HealthRecord = {
    equipmentId: reading.equipmentId,
    state,
    reasons,
    outcome: reading.outcome,
    probeType: reading.probeType,
    authFailed: reading.outcome === 'auth-failed',
    // What the device is doing now is unknown without an answer; what it is stays as last read.
    power: answered ? (reading.power ?? null) : null,
    input: answered ? (reading.input ?? null) : null,
    lamps,
    filterHours,
    model: answered ? (reading.model ?? kept('model')) : kept('model'),
    serial: answered ? (reading.serial ?? kept('serial')) : kept('serial'),
    firmware,
    replacementLamp: answered
      ? (reading.replacementLamp ?? kept('replacementLamp'))
      : kept('replacementLamp'),
    replacementFilter: answered
      ? (reading.replacementFilter ?? kept('replacementFilter'))
      : kept('replacementFilter'),
    uptimeSeconds: uptime.seconds,
    uptimeReadAt: uptime.readAt,
    rebootedAt: uptime.rebootedAt,
    checkedAt,
    stateSince: stateChanged ? checkedAt : (previous?.stateSince ?? checkedAt),
    lampSampledOn: sampleDay ?? kept('lampSampledOn'),
    lampRates: kept('lampRates'),
    filterRate: kept('filterRate'),
  };
  const firmwareChange =
    answered && reading.firmware && reading.firmware !== previous?.firmware
      ? { from: previous?.firmware ?? null, to: reading.firmware }
      : null;
  return { record, stateChanged, rebooted: uptime.rebooted, firmwareChange, sampleDay };
}

/** The reasons as a person compares them: a lamp an hour older is the same warning. */
const gist = (reasons: readonly string[]) => JSON.stringify(reasons.map((r) => r.replace(/[\d,.]+/g, '#')));

const figure = (n: number) => n.toLocaleString('en-US');

function stateOf(
  reading: ProbeReading,
  settings: ProbeSettings | null,
  lamps: HealthRecord['lamps'],
  filterHours: number | null,
): { state: HealthState; reasons: string[] } {
  const errors: string[] = [];
  const warnings: string[] = [];
  const outcome = outcomeReason(reading, settings);
  if (outcome) errors.push(outcome);
  for (const finding of reading.findings) {
    if (finding.state === 'error') errors.push(finding.reason);
    if (finding.state === 'warning') warnings.push(finding.reason);
  }
  if (reading.outcome === 'answered') warnings.push(...lifeWarnings(settings, lamps, filterHours));
  const reasons = [...new Set([...errors, ...warnings])];
  return { state: errors.length ? 'error' : warnings.length ? 'warning' : 'ok', reasons };
}

/** Why a probe got no usable answer, in words; null when it got one. */
export function outcomeReason(
  reading: Pick<ProbeReading, 'outcome' | 'probeType'>,
  settings: ProbeSettings | null,
): string | null {
  const type = reading.probeType;
  // The settings the reading was made with, unless the probe was changed since.
  const own: { type: ProbeType; port?: number; https?: boolean } =
    settings?.type === type ? settings : { type };
  const https = own.https === true;
  const label = https ? 'HTTPS' : probeLabels[type];
  const port = probePortOf(own);
  const where = port ? ` on port ${port}` : '';
  switch (reading.outcome) {
    case 'answered':
      return null;
    case 'unreachable':
      return `No answer from ${label}${where}`;
    case 'protocol-error':
      return `Unexpected answer from ${label}${where}`;
    case 'auth-failed':
      if (type === 'snmp')
        return settings?.type === 'snmp' && settings.version === '3'
          ? 'Wrong SNMP v3 user or keys'
          : 'Wrong SNMP community';
      return ['pjlink', 'qsys', 'extron'].includes(type)
        ? `Wrong ${label} password`
        : `${label} refused the credentials`;
  }
}

function lifeWarnings(
  settings: ProbeSettings | null,
  lamps: HealthRecord['lamps'],
  filterHours: number | null,
): string[] {
  const rated = ratedLivesOf(settings);
  const warnings: string[] = [];
  if (rated.lamp) {
    for (const [i, lamp] of (lamps ?? []).entries()) {
      if (lamp.hours >= rated.lamp * RATED_LIFE_WARNING)
        warnings.push(`Lamp ${i + 1} at ${figure(lamp.hours)} of ${figure(rated.lamp)} hours`);
    }
  }
  if (rated.filter && filterHours !== null && filterHours >= rated.filter * RATED_LIFE_WARNING)
    warnings.push(`Filter at ${figure(filterHours)} of ${figure(rated.filter)} hours`);
  return warnings;
}

/** Seconds an uptime may fall short of the time passed (clocks, the probe's own delay) before it counts as a restart. */
const UPTIME_SLACK_SECONDS = 60;

/**
 * The uptime now, and whether it went back: lower than before, or short of the time passed since
 * by more than a minute (a restart between two readings far apart). A reading without an uptime
 * keeps the last one, which the next is judged against.
 */
function uptimeOf(reading: ProbeReading, previous: HealthRecord | null, checkedAt: number) {
  const rebootedBefore = previous?.rebootedAt ?? null;
  const seconds = reading.outcome === 'answered' ? reading.uptimeSeconds : undefined;
  if (seconds === undefined) {
    return {
      seconds: previous?.uptimeSeconds ?? null,
      readAt: previous?.uptimeReadAt ?? null,
      rebootedAt: rebootedBefore,
      rebooted: false,
    };
  }
  let rebooted = false;
  if (previous?.uptimeSeconds != null && previous.uptimeReadAt != null) {
    const elapsed = Math.max(0, (checkedAt - previous.uptimeReadAt) / 1000);
    const slack = UPTIME_SLACK_SECONDS + elapsed * 0.01;
    rebooted = seconds < previous.uptimeSeconds || seconds + slack < previous.uptimeSeconds + elapsed;
  }
  return {
    seconds,
    readAt: checkedAt,
    rebootedAt: rebooted ? checkedAt - Math.round(seconds * 1000) : rebootedBefore,
    rebooted,
  };
}

/** A day's sample of a device's lamp and filter hours. */
export interface HoursSample {
  sampledAt: number;
  lampHours: number[];
  filterHours: number | null;
}

const DAY_MS = 86_400_000;

/**
 * Hours of use per day of each lamp and of the filter, from the samples of the last 30 days and
 * the hours now: counted from the oldest sample since the count last went back (a new lamp starts
 * again at 0), over at least a day; null where that is not known.
 */
export function usageRates(
  samples: readonly HoursSample[],
  now: HoursSample,
): { lampRates: (number | null)[]; filterRate: number | null } {
  const ordered = [...samples].sort((a, b) => a.sampledAt - b.sampledAt);
  const rate = (valueOf: (s: HoursSample) => number | null | undefined): number | null => {
    const current = valueOf(now);
    if (current == null) return null;
    let start: HoursSample | null = null;
    let before: number | null = null;
    for (const sample of ordered) {
      const value = valueOf(sample);
      if (value == null || value > current) {
        start = null;
        before = null;
        continue;
      }
      if (!start || (before !== null && value < before)) start = sample;
      before = value;
    }
    const days = start ? (now.sampledAt - start.sampledAt) / DAY_MS : 0;
    if (!start || days < 1) return null;
    return Math.round(((current - valueOf(start)!) / days) * 100) / 100;
  };
  return {
    lampRates: now.lampHours.map((_, i) => rate((s) => s.lampHours[i])),
    filterRate: rate((s) => s.filterHours),
  };
}
