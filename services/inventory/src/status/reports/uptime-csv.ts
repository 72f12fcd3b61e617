import { type Tables } from '../../shared/database/sql';
import { uptimeReportSql } from './uptime';

/*
 * The uptime CSV's lines written by PostgreSQL (`COPY … WITH (FORMAT csv)`), byte for byte as
 * `uptimeCsvLine(uptimeOf(row))` writes them: the TypeScript is the definition, this its translation
 * (test/uptime-csv.int-spec.ts runs both over the same rows). The numbers follow the double
 * arithmetic of Math.round and toFixed, which PostgreSQL's float8 does alike. COPY quotes a cell
 * holding a quote, comma, CR or LF and doubles its quotes, as csvCell does, but writes an empty
 * string as "" (NULL as nothing): an empty cell is NULL. Its rows end in LF (see CrlfLines).
 */

/** The code points csvCell's formulaTrigger matches: = + - @ tab CR, U+2010 to U+2015, −, ﹘. */
const isTrigger = (codePoint: string) =>
  `(${codePoint} IN (9, 13, 43, 45, 61, 64, 8722, 65112) OR ${codePoint} BETWEEN 8208 AND 8213)`;

/**
 * csvCell but for the quoting: an apostrophe before a cell a spreadsheet would run, judged by its
 * first character as written and, beyond ASCII, after NFKC (what ascii() answers is a code point).
 */
const textCell = (value: string) =>
  `NULLIF(CASE WHEN ${isTrigger(`ascii(${value})`)}
                 OR (ascii(${value}) >= 128 AND ${isTrigger(`ascii(normalize(left(${value}, 1), NFKC))`)})
               THEN '''' || ${value} ELSE ${value} END, '')`;

/** Math.round of a non-negative float8: half up (floor(x + 0.5) is off for 0.49999999999999994). */
const jsRound = (x: string) => `(floor(${x}) + (${x} - floor(${x}) >= 0.5::float8)::int)`;

/** A whole number of tenths as toFixed(1) writes it. */
const tenths = (n: string) => `((${n})::bigint * 0.1)::text`;

/**
 * `round(seconds / 3600, 2).toFixed(1)`: hundredths R rounded by Math.round, then the double R / 100
 * to one decimal, whose tie (R ending in 5) goes up unless that double is below the decimal R / 100.
 * 100h − R is computed exactly as ((64h − R) + 32h) + 4h: each product by a power of two is exact,
 * and each sum is of two numbers of opposite signs within a factor 2 of each other (Sterbenz).
 */
function hoursCell(seconds: string): string {
  const r = jsRound(`${seconds} / 3600 * 100`);
  const h = `(${r} / 100)`;
  const below = `(((${h} * 64 - ${r}) + ${h} * 32) + ${h} * 4 < 0)`;
  return tenths(`(${r}::bigint + CASE WHEN ${r}::bigint % 10 = 5 AND ${below} THEN 4 ELSE 5 END) / 10`);
}

/** `round(up / (up + down) * 100, 1).toFixed(1)`, N/A without observed time. */
function percentCell(up: string, down: string): string {
  const observed = `(${up} + ${down})`;
  return `CASE WHEN ${observed} > 0 THEN ${tenths(jsRound(`${up} / ${observed} * 100 * 10`))} ELSE 'N/A' END`;
}

/** The CSV's cells (uptimeCsvColumns) of the report's row `x` (uptimeRowsSql's columns). */
export const uptimeCsvCells = `
  ${textCell('x."buildingName"')}, ${textCell('x."roomName"')}, ${textCell('x.name')},
  ${textCell(`COALESCE(x.type, '')`)}, ${textCell(`COALESCE(NULLIF(x."ipAddress", ''), 'N/A')`)},
  ${textCell('x.status')}, ${percentCell('x."upSeconds"', 'x."downSeconds"')},
  ${hoursCell('x."upSeconds"')}, ${hoursCell('x."downSeconds"')},
  to_char(x."lastUpdated" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * COPY of the whole report over [from, to) as CSV lines, header aside. COPY takes no parameters:
 * the instants are written as literals (toISOString's, nothing else can be in them).
 */
export const uptimeCsvCopySql = (t: Tables, from: Date, to: Date) => {
  const instant = (at: Date) => `'${at.toISOString()}'::timestamptz`;
  return `COPY (${uptimeReportSql(t, uptimeCsvCells, instant(from), instant(to))}) TO STDOUT WITH (FORMAT csv)`;
};
