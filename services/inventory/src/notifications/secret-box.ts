import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

/** A new webhook signing secret: 32 random bytes, prefixed so a leaked one is recognisable. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/**
 * Encrypts a channel's secret with ALERTS_SECRET_KEY (AES-256-GCM). The channel id is the
 * additional data: a sealed secret copied to another row does not open there.
 */
export function sealSecret(key: Buffer, secret: string, channelId: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(channelId));
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return ['v1', iv, sealed, cipher.getAuthTag()]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

/** The secret `sealSecret` sealed; throws when the key is another (the key was changed). */
export function openSecret(key: Buffer, sealed: string, channelId: string): string {
  const [version, iv, data, tag] = sealed.split('.');
  if (version !== 'v1' || !tag) throw new Error('The stored secret is in an unknown format');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(channelId));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}

/**
 * The `X-CM-Signature` value of a body sent at `unixSeconds`: `t=<unixSeconds>,v1=<hex>`, the
 * HMAC-SHA256 with the channel's secret of `<unixSeconds>.<body>`. The time is signed with the
 * body, so a receiver that refuses old times refuses a replay.
 */
export function webhookSignature(secret: string, body: string, unixSeconds: number): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}
