import { type EquipmentUptime } from '@cm/contracts';

/** Spec section 9, in this order. */
export const uptimeCsvColumns = [
  'Building',
  'Room',
  'Equipment Name',
  'Equipment Type',
  'IP Address',
  'Status',
  'Uptime %',
  'Uptime Hours',
  'Downtime Hours',
  'Last Updated',
] as const;

/**
 * RFC 4180 quoting; a cell that a spreadsheet would read as a formula (=, +, -, @) is prefixed
 * with an apostrophe, since names are typed by people and the file is opened in spreadsheets.
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

const hours = (h: number) => h.toFixed(1);

/** The uptime report as CSV text, a header line then one line per equipment, CRLF-separated. */
export function uptimeCsv(rows: readonly EquipmentUptime[]): string {
  const lines = rows.map((r) =>
    [
      r.buildingName,
      r.roomName,
      r.name,
      r.type ?? '',
      r.ipAddress || 'N/A',
      r.status,
      // No recorded history in the window: no percentage to give.
      r.uptimePercent === null ? 'N/A' : r.uptimePercent.toFixed(1),
      hours(r.uptimeHours),
      hours(r.downtimeHours),
      r.lastUpdated,
    ].map(csvCell),
  );
  return [[...uptimeCsvColumns], ...lines].map((cells) => cells.join(',')).join('\r\n') + '\r\n';
}

/** Spec section 9: equipment-uptime-report-{date}.csv, the date as YYYY-MM-DD in local time. */
export function uptimeCsvFileName(now: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `equipment-uptime-report-${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}.csv`;
}
