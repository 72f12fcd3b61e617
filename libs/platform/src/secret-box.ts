import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { optionalText, secret } from './config';

/**
 * An optional 32-byte encryption key as base64 (`openssl rand -base64 32`), such as inventory's
 * ALERTS_SECRET_KEY or auth's AUTH_TOTP_KEY; unset, the features that keep secrets are refused.
 */
export const encryptionKey = () =>
  secret(
    optionalText().transform((value, ctx) => {
      if (value === undefined) return undefined;
      const key = Buffer.from(value, 'base64');
      if (!/^[A-Za-z0-9+/]{43}=?$/.test(value) || key.length !== 32) {
        ctx.addIssue({
          code: 'custom',
          message: 'must be 32 random bytes in base64, as `openssl rand -base64 32` prints them',
        });
        return z.NEVER;
      }
      return key;
    }),
  );

/**
 * Encrypts a secret kept in a row with AES-256-GCM. `owner` (the row's id) is the additional
 * data: a sealed secret copied to another row does not open there.
 */
export function sealSecret(key: Buffer, secret: string, owner: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(owner));
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return ['v1', iv, sealed, cipher.getAuthTag()]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

/** The secret `sealSecret` sealed; throws when the key is another (the key was changed). */
export function openSecret(key: Buffer, sealed: string, owner: string): string {
  const [version, iv, data, tag] = sealed.split('.');
  if (version !== 'v1' || !tag) throw new Error('The stored secret is in an unknown format');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(owner));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}
