import { Buffer } from 'node:buffer';
import { createHmac, timingSafeEqual } from 'node:crypto';

/** express-session's cookie: `s:<sid>.<HMAC-SHA256 in base64 without padding>`, URL-encoded. */
export function sessionId(cookieHeader = '', secret) {
  const raw = cookieHeader
    .split(';')
    .map((c) => c.trim())
    .find((c) => c.startsWith('cm.sid='));
  if (!raw) return null;
  const value = decodeURIComponent(raw.slice('cm.sid='.length));
  if (!value.startsWith('s:')) return null;
  const signed = value.slice(2);
  const sid = signed.slice(0, signed.lastIndexOf('.'));
  const expected = Buffer.from(
    `${sid}.${createHmac('sha256', secret).update(sid).digest('base64').replace(/=+$/, '')}`,
  );
  const given = Buffer.from(signed);
  return expected.length === given.length && timingSafeEqual(expected, given) ? sid : null;
}
