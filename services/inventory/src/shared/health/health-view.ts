import {
  type DeviceHealth,
  type HealthState,
  type Lamp,
  type PowerState,
  type ProbeSettings,
} from '@cm/contracts';
import { isoOf } from '../database/sql';

/**
 * An `equipment_health` row as DeviceHealth, for every context that shows it (the equipment's
 * answers, the consumables report): the columns to select (the table aliased `h`) and the mapping.
 */
export const healthColumns = `h.state AS "healthState", h.reasons AS "healthReasons", h.power AS "healthPower",
  h.lamps AS "healthLamps", h.filter_hours AS "healthFilterHours", h.input AS "healthInput",
  h.model AS "healthModel", h.serial AS "healthSerial", h.firmware AS "healthFirmware",
  ${isoOf('h.rebooted_at')} AS "healthRebootedAt", ${isoOf('h.checked_at')} AS "healthCheckedAt",
  h.lamp_rates AS "healthLampRates"`;

export interface HealthColumns {
  healthState: HealthState | null;
  healthReasons: string[] | null;
  healthPower: PowerState | null;
  healthLamps: { hours: number; on: boolean }[] | null;
  healthFilterHours: number | null;
  healthInput: string | null;
  healthModel: string | null;
  healthSerial: string | null;
  healthFirmware: string | null;
  healthRebootedAt: string | null;
  healthCheckedAt: string | null;
  /** Hours of use per day of each lamp over the last 30 days; null where not known yet. */
  healthLampRates: (number | null)[] | null;
}

/** The rated lives the probe settings give (PJLink's), when known. */
export function ratedLivesOf(settings: ProbeSettings | null): { lamp?: number; filter?: number } {
  if (settings?.type !== 'pjlink') return {};
  return { lamp: settings.lampRatedHours, filter: settings.filterRatedHours };
}

/** Null before the first reading, and for equipment pinged only (its health is its status). */
export function deviceHealthOf(row: HealthColumns, settings: ProbeSettings | null): DeviceHealth | null {
  if (!row.healthState || !row.healthCheckedAt || !settings || settings.type === 'icmp') return null;
  const rated = ratedLivesOf(settings).lamp;
  const lamps: Lamp[] | undefined = row.healthLamps?.map((lamp) => ({
    ...lamp,
    ...(rated ? { ratedHours: rated } : {}),
  }));
  const replaceBy =
    lamps && rated ? lampReplaceBy(lamps, row.healthLampRates ?? [], rated, row.healthCheckedAt) : null;
  return withoutEmpty({
    state: row.healthState,
    reasons: row.healthReasons ?? [],
    power: row.healthPower,
    lamps,
    filterHours: row.healthFilterHours,
    input: row.healthInput,
    model: row.healthModel,
    serial: row.healthSerial,
    firmware: row.healthFirmware,
    rebootedAt: row.healthRebootedAt,
    checkedAt: row.healthCheckedAt,
    lampReplaceBy: replaceBy,
  });
}

const DAY_MS = 86_400_000;

/**
 * The day (YYYY-MM-DD, UTC) a consumable used `ratePerDay` hours a day reaches `ratedHours`,
 * counted from `asOf` when it had `hours`; null without a rate. One already past is due `asOf`.
 */
export function replaceByDate(
  hours: number,
  ratePerDay: number | null | undefined,
  ratedHours: number,
  asOf: string,
): string | null {
  const from = Date.parse(asOf);
  if (hours >= ratedHours) return new Date(from).toISOString().slice(0, 10);
  if (!ratePerDay || ratePerDay <= 0) return null;
  const days = (ratedHours - hours) / ratePerDay;
  // Decades away is no forecast anyone orders by (and a date past year 9999 cannot be written).
  if (days > 36_500) return null;
  return new Date(from + days * DAY_MS).toISOString().slice(0, 10);
}

/** The earliest day any lamp reaches its rated life at its recent use. */
export function lampReplaceBy(
  lamps: readonly { hours: number }[],
  rates: readonly (number | null)[],
  ratedHours: number,
  asOf: string,
): string | null {
  const dates = lamps
    .map((lamp, i) => replaceByDate(lamp.hours, rates[i], ratedHours, asOf))
    .filter((d): d is string => d !== null)
    .sort();
  return dates[0] ?? null;
}

/** Optional fields left out rather than null, as the contract's optional fields are. */
function withoutEmpty<T extends Record<string, unknown>>(value: T): DeviceHealth {
  return Object.fromEntries(
    Object.entries(value).filter(([, v]) => v !== null && v !== undefined),
  ) as unknown as DeviceHealth;
}
