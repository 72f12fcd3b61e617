/**
 * What every CSV the product writes (the uptime report, the inventory export) has in common.
 * Names and notes are typed by people and the files are opened in spreadsheets, which run a cell
 * that starts with =, +, -, @, a tab or a carriage return as a formula ("CSV injection"): such a
 * cell is written with a leading apostrophe, which spreadsheets show as text and do not run.
 */
const formulaStart = /^[=+\-@\t\r]/;

/** RFC 4180 quoting, after neutralising a cell a spreadsheet would run as a formula. */
export function csvCell(value: string): string {
  const safe = formulaStart.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/**
 * The value `csvCell` neutralised, as read back: an apostrophe before a formula character is
 * removed, so a file exported and imported again keeps "-3 dB pad" as it was typed.
 */
export function csvCellValue(cell: string): string {
  return cell.startsWith("'") && formulaStart.test(cell.slice(1)) ? cell.slice(1) : cell;
}

/** One CSV line of cells, CRLF-terminated. */
export const csvLine = (cells: readonly string[]): string => cells.map(csvCell).join(',') + '\r\n';
