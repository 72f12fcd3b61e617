/**
 * What every CSV the product writes (the uptime report, the inventory export) has in common.
 * Names and notes are typed by people and the files are opened in spreadsheets, which run a cell
 * that starts with =, +, -, @, a tab or a carriage return as a formula ("CSV injection"): such a
 * cell is written with a leading apostrophe, which spreadsheets show as text and do not run.
 * The first character is judged after NFKC, which makes the fullwidth and small forms (＝ ＋ － ＠,
 * ﹦ ﹢ ﹣ ﹫) the ASCII ones, since a spreadsheet may fold them too; the minus sign (U+2212) and
 * the other dashes NFKC leaves alone count as a minus.
 */
const formulaTrigger = /^[=+\-@\t\r\u2010-\u2015\u2212\uFE58]/;

/** The first character as written (`=` then a combining mark composes to `≠`) and after NFKC. */
function startsFormula(value: string): boolean {
  const first = value.codePointAt(0);
  if (first === undefined) return false;
  const character = String.fromCodePoint(first);
  if (formulaTrigger.test(character)) return true;
  // NFKC leaves ASCII as it is (and normalizing every cell of a 50,000-row report took a third of
  // formatting it): only a character beyond it may fold into a trigger.
  return first >= 0x80 && formulaTrigger.test(character.normalize('NFKC'));
}

/** RFC 4180 quoting, after neutralising a cell a spreadsheet would run as a formula. */
export function csvCell(value: string): string {
  const safe = startsFormula(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/**
 * The value `csvCell` neutralised, as read back: an apostrophe before a formula character is
 * removed, so a file exported and imported again keeps "-3 dB pad" as it was typed.
 */
export function csvCellValue(cell: string): string {
  return cell.startsWith("'") && startsFormula(cell.slice(1)) ? cell.slice(1) : cell;
}

/** One CSV line of cells, CRLF-terminated. */
export const csvLine = (cells: readonly string[]): string => cells.map(csvCell).join(',') + '\r\n';

/** `{prefix}-{date}.csv`, the date as YYYY-MM-DD in local time (the day the person downloads it). */
export function datedCsvFileName(prefix: string, now: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${prefix}-${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}.csv`;
}
