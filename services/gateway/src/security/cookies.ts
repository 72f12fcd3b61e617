import { createHmac, timingSafeEqual } from 'node:crypto';

/** The value of one cookie of a request's Cookie header, as sent (not decoded). */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of header?.split(';') ?? []) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

/** Whether a presented token or signature is the expected one, in time that does not tell how near it came. */
export function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * A key of its own for one use of SESSION_SECRET (a device cookie, a two-factor challenge, a
 * single sign-on under way): what is signed or sealed for one use is never valid for another,
 * nor as a session cookie.
 */
export function keyFor(sessionSecret: string, purpose: string): Buffer {
  return createHmac('sha256', sessionSecret).update(purpose).digest();
}
