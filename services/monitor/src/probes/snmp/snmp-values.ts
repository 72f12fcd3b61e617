import type { ProbeFinding, SnmpOidCheck } from '@cm/contracts';
import * as snmp from 'net-snmp';

/** A value as the product shows it: numbers stay numbers, everything else becomes text. */
export type SnmpValue = number | string;

const MAX_TEXT = 120;

export function clamp(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Octet strings are text on most devices, binary (a MAC address) on some: hex those. */
function octets(buffer: Buffer): string {
  const text = buffer.toString('utf8');
  // eslint-disable-next-line no-control-regex
  if (!/[\x00-\x08\x0e-\x1f\x7f\ufffd]/.test(text)) return text.replace(/\0+$/, '').trim();
  return [...buffer].map((b) => b.toString(16).padStart(2, '0')).join(':');
}

function counter64(value: unknown): number | undefined {
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'number') return value;
  if (Buffer.isBuffer(value) && value.length <= 8)
    return Number(Buffer.concat([Buffer.alloc(8 - value.length), value]).readBigUInt64BE());
  return undefined;
}

/** The value of a varbind, or undefined when the device has no such object. */
export function varbindValue(varbind: snmp.Varbind | undefined): SnmpValue | undefined {
  if (!varbind || snmp.isVarbindError(varbind)) return undefined;
  const { type, value } = varbind;
  switch (type) {
    case snmp.ObjectType.Integer:
    case snmp.ObjectType.Counter:
    case snmp.ObjectType.Gauge:
    case snmp.ObjectType.TimeTicks:
      return typeof value === 'number' ? value : undefined;
    case snmp.ObjectType.Counter64:
      return counter64(value);
    case snmp.ObjectType.OctetString:
    case snmp.ObjectType.Opaque:
      return Buffer.isBuffer(value) ? octets(value) : typeof value === 'string' ? value : undefined;
    case snmp.ObjectType.Null:
      return undefined;
    default:
      return value === null || value === undefined ? undefined : String(value);
  }
}

/** "V1.12", "firmware R1.305", "Version 15.0(2)SE4", "[v6.2.4768]": a word or letter, then x.y… */
const VERSION_MARKER =
  /(?:^|[\s,;([])(?:(?:firmware|fw|software|version|ver\.?)\s*[:.]?\s*[vr]?|[vr])\s*(\d+(?:\.\d+)+[\w.()-]*)/i;

/**
 * Model and firmware from a sysDescr, when it names a version ("Extron IN1608 xi, V1.12",
 * "NEC MultiSync V554 firmware R1.305"). Without a version marker the text is too free to split
 * safely, so nothing is guessed: a model with a version in it would split the fleet view.
 */
export function parseSysDescr(sysDescr: string): { model?: string; firmware?: string } {
  const text = sysDescr.split(/\r?\n/)[0].trim();
  const marker = VERSION_MARKER.exec(text);
  if (!marker) {
    return /\d+\.\d+/.test(text) || text.length === 0 ? {} : { model: clamp(text, MAX_TEXT) };
  }
  const model = text
    .slice(0, marker.index)
    .replace(/[\s,;:([-]+$/, '')
    .trim();
  const firmware = marker[1].replace(/[.,;)]+$/, '');
  return { ...(model ? { model: clamp(model, MAX_TEXT) } : {}), firmware: clamp(firmware, MAX_TEXT) };
}

function asNumber(value: SnmpValue | undefined): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const n = Number(value.trim());
  return Number.isFinite(n) ? n : undefined;
}

const numberFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

function shown(value: SnmpValue): string {
  const n = asNumber(value);
  return n === undefined ? clamp(String(value), 60) : numberFormat.format(n);
}

type Operator = SnmpOidCheck['operator'];

function holds(value: SnmpValue, operator: Operator, threshold: SnmpValue | undefined): boolean {
  if (threshold === undefined) return false;
  const a = asNumber(value);
  const b = asNumber(threshold);
  if (a !== undefined && b !== undefined) {
    switch (operator) {
      case '>':
        return a > b;
      case '>=':
        return a >= b;
      case '<':
        return a < b;
      case '<=':
        return a <= b;
      case '=':
        return a === b;
      case '!=':
        return a !== b;
    }
  }
  // Text compares only for equality; "above" has no meaning between words.
  if (operator === '=') return String(value).trim() === String(threshold).trim();
  if (operator === '!=') return String(value).trim() !== String(threshold).trim();
  return false;
}

function phrase(operator: Operator, numeric: boolean): string {
  switch (operator) {
    case '>':
      return 'above';
    case '>=':
      return 'at or above';
    case '<':
      return 'below';
    case '<=':
      return 'at or below';
    case '=':
      return numeric ? 'at' : 'when';
    case '!=':
      return numeric ? 'other than' : 'when not';
  }
}

/**
 * One administrator-defined value judged against its thresholds, the error first:
 * "Display temperature 72 (error above 70)". Undefined when it is within both.
 */
export function judgeValue(check: SnmpOidCheck, value: SnmpValue | undefined): ProbeFinding | undefined {
  if (value === undefined) {
    return {
      state: 'warning',
      reason: clamp(`${check.label} not available from the device (OID ${check.oid})`, 200),
    };
  }
  const state = holds(value, check.operator, check.error)
    ? 'error'
    : holds(value, check.operator, check.warning)
      ? 'warning'
      : undefined;
  if (!state) return undefined;
  const threshold = (state === 'error' ? check.error : check.warning) as SnmpValue;
  const numeric = asNumber(value) !== undefined && asNumber(threshold) !== undefined;
  return {
    state,
    reason: clamp(
      `${check.label} ${shown(value)} (${state} ${phrase(check.operator, numeric)} ${shown(threshold)})`,
      200,
    ),
  };
}

/** The value as readings carry it in `values`: text bounded, numbers as they are. */
export function storedValue(value: SnmpValue): SnmpValue {
  return typeof value === 'number' ? value : clamp(value, MAX_TEXT);
}
