import * as snmp from 'net-snmp';

/**
 * RFC 3414 §3.2 step 6: an agent answers a request whose HMAC does not match with a Report
 * carrying usmStatsWrongDigests, so the manager learns "wrong key" rather than waiting out a
 * silence. Real devices do; net-snmp's agent drops the request instead, so the simulator sends
 * the report itself. It needs only the unencrypted header, read here with a minimal BER reader.
 */

const USM_STATS_WRONG_DIGESTS = '1.3.6.1.6.3.15.1.1.5.0';
const FLAG_AUTH = 0x01;
const FLAG_REPORTABLE = 0x04;

interface Tlv {
  tag: number;
  /** The whole element, tag and length included. */
  raw: Buffer;
  content: Buffer;
}

function readTlv(buffer: Buffer, offset: number): Tlv {
  const tag = buffer[offset];
  let length = buffer[offset + 1];
  let start = offset + 2;
  if (length & 0x80) {
    const octets = length & 0x7f;
    if (octets < 1 || octets > 4) throw new RangeError('BER length out of range');
    length = buffer.readUIntBE(start, octets);
    start += octets;
  }
  const end = start + length;
  if (tag === undefined || end > buffer.length) throw new RangeError('BER element past the end');
  return { tag, raw: buffer.subarray(offset, end), content: buffer.subarray(start, end) };
}

/** The elements of a constructed element's content, in order. */
function children(content: Buffer): Tlv[] {
  const out: Tlv[] = [];
  for (let offset = 0; offset < content.length;) {
    const element = readTlv(content, offset);
    out.push(element);
    offset += element.raw.length;
  }
  return out;
}

function tlv(tag: number, ...parts: Buffer[]): Buffer {
  const content = Buffer.concat(parts);
  const n = content.length;
  const length = n < 0x80 ? [n] : n < 0x100 ? [0x81, n] : [0x82, n >> 8, n & 0xff];
  return Buffer.concat([Buffer.from([tag, ...length]), content]);
}

function unsigned(tag: number, value: number): Buffer {
  const bytes: number[] = [];
  let rest = Math.max(0, Math.floor(value)) % 2 ** 32;
  do {
    bytes.unshift(rest & 0xff);
    rest = Math.floor(rest / 256);
  } while (rest > 0);
  if (bytes[0] & 0x80) bytes.unshift(0);
  return tlv(tag, Buffer.from(bytes));
}

function oid(dotted: string): Buffer {
  const [first, second, ...rest] = dotted.split('.').map(Number);
  const bytes = [first * 40 + second];
  for (const arc of rest) {
    const groups = [arc & 0x7f];
    for (let v = arc >>> 7; v > 0; v >>>= 7) groups.unshift((v & 0x7f) | 0x80);
    bytes.push(...groups);
  }
  return tlv(0x06, Buffer.from(bytes));
}

const SEQUENCE = 0x30;
const INTEGER = 0x02;
const OCTET_STRING = 0x04;
const COUNTER32 = 0x41;
const REPORT_PDU = 0xa8;

interface V3Header {
  msgId: Buffer;
  flags: number;
  engineId: Tlv;
  engineBoots: Buffer;
  engineTime: Buffer;
  userName: string;
  /** Where the HMAC sits in the message, so it can be zeroed while checking. */
  authParams: Buffer;
}

function readV3Header(message: Buffer): V3Header | undefined {
  const [version, globalData, securityParams] = children(readTlv(message, 0).content);
  if (version?.tag !== INTEGER || version.content.length !== 1 || version.content[0] !== 3) return undefined;
  const [msgId, , flags] = children(globalData.content);
  const [engineId, engineBoots, engineTime, userName, authParams] = children(
    readTlv(securityParams.content, 0).content,
  );
  if (!msgId || !flags || !authParams) return undefined;
  return {
    msgId: msgId.raw,
    flags: flags.content[0] ?? 0,
    engineId,
    engineBoots: engineBoots.raw,
    engineTime: engineTime.raw,
    userName: userName.content.toString('utf8'),
    authParams: authParams.content,
  };
}

function wrongDigestReport(header: V3Header, count: number): Buffer {
  const empty = tlv(OCTET_STRING);
  const securityParams = tlv(
    SEQUENCE,
    header.engineId.raw,
    header.engineBoots,
    header.engineTime,
    empty,
    empty,
    empty,
  );
  const varbind = tlv(SEQUENCE, oid(USM_STATS_WRONG_DIGESTS), unsigned(COUNTER32, count));
  const pdu = tlv(
    REPORT_PDU,
    header.msgId,
    unsigned(INTEGER, 0),
    unsigned(INTEGER, 0),
    tlv(SEQUENCE, varbind),
  );
  return tlv(
    SEQUENCE,
    unsigned(INTEGER, 3),
    tlv(
      SEQUENCE,
      header.msgId,
      unsigned(INTEGER, 65_507),
      tlv(OCTET_STRING, Buffer.from([0])),
      unsigned(INTEGER, 3),
    ),
    tlv(OCTET_STRING, securityParams),
    tlv(SEQUENCE, header.engineId.raw, empty, pdu),
  );
}

/**
 * The report to send for `message`, or undefined when the message is not an authenticated v3
 * request from a known user with a wrong HMAC (everything else is net-snmp's to answer).
 */
export function reportForWrongDigest(
  message: Buffer,
  users: readonly snmp.User[],
  count: () => number,
): Buffer | undefined {
  let header: V3Header | undefined;
  const copy = Buffer.from(message);
  try {
    header = readV3Header(copy);
  } catch {
    return undefined;
  }
  if (!header || !(header.flags & FLAG_AUTH) || !(header.flags & FLAG_REPORTABLE)) return undefined;
  if (header.engineId.content.length === 0) return undefined;
  const user = users.find((u) => u.name === header.userName);
  if (!user?.authProtocol || !user.authKey || user.level === snmp.SecurityLevel.noAuthNoPriv)
    return undefined;
  const authentic = snmp.Authentication.isAuthentic(
    copy,
    user.authProtocol,
    user.authKey,
    header.engineId.content,
    header.authParams,
  );
  return authentic ? undefined : wrongDigestReport(header, count());
}
