import { AppError, pgCodeOf, schemaOf } from '@cm/platform';

/** PostgreSQL's error codes that a repository turns into answers. */
export const pgCodes = { foreignKeyViolation: '23503', checkViolation: '23514' } as const;

export function isPgError(error: unknown, code: string): boolean {
  return pgCodeOf(error) === code;
}

/**
 * `SET a = $2, b = $3` for the fields an update carries (absent ones keep their value), with
 * their values after the leading parameters. Columns come from a fixed map, never from input.
 */
export function setClause<T extends object>(
  changes: T,
  columns: { [K in keyof T]?: string },
  firstIndex: number,
): { sql: string; values: unknown[] } {
  const parts: string[] = [];
  const values: unknown[] = [];
  for (const [key, column] of Object.entries(columns) as [keyof T, string][]) {
    if (changes[key] === undefined) continue;
    values.push(changes[key]);
    parts.push(`${column} = $${firstIndex + values.length - 1}`);
  }
  return { sql: parts.join(', '), values };
}

/** Runs a write whose foreign key names a parent; a vanished parent is the caller's 404. */
export async function withParent<T>(write: () => Promise<T>, parentMissing: () => AppError): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isPgError(error, pgCodes.foreignKeyViolation)) throw parentMissing();
    throw error;
  }
}

/** The service's tables, qualified by its schema: raw queries do not rely on search_path. */
export function tablesOf(dataSource: { options: object }) {
  const s = schemaOf(dataSource);
  return {
    schema: s,
    buildings: `${s}.buildings`,
    rooms: `${s}.rooms`,
    equipment: `${s}.equipment`,
    state: `${s}.equipment_state`,
    spans: `${s}.status_spans`,
    handledMessages: `${s}.status_messages_handled`,
    days: `${s}.status_days`,
    hours: `${s}.status_hours`,
    events: `${s}.equipment_events`,
    windows: `${s}.maintenance_windows`,
    channels: `${s}.notification_channels`,
    deliveries: `${s}.deliveries`,
    incidents: `${s}.service_desk_incidents`,
    scheduledRuns: `${s}.scheduled_runs`,
    importBatches: `${s}.import_batches`,
    alerts: `${s}.alerts`,
    quietHours: `${s}.building_quiet_hours`,
    monitoringState: `${s}.monitoring_state`,
    health: `${s}.equipment_health`,
    healthSpans: `${s}.health_spans`,
    healthDays: `${s}.health_days`,
    firmwareHistory: `${s}.firmware_history`,
    scheduleSources: `${s}.schedule_sources`,
    occurrences: `${s}.schedule_occurrences`,
    scheduleLocations: `${s}.schedule_locations`,
    readiness: `${s}.readiness_checks`,
    readinessSummary: `${s}.readiness_summary`,
    readinessSummariesSent: `${s}.readiness_summaries_sent`,
  };
}
export type Tables = ReturnType<typeof tablesOf>;

/** A timestamptz column as an ISO 8601 UTC text with milliseconds, as the contracts' timestamps are. */
export function isoOf(column: string): string {
  return `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}
