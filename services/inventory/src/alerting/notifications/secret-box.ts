import { createHmac, randomBytes } from 'node:crypto';

/** Channel secrets are sealed with ALERTS_SECRET_KEY, the channel id binding each to its row. */
export { openSecret, sealSecret } from '@cm/platform';

/** A new webhook signing secret: 32 random bytes, prefixed so a leaked one is recognisable. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
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
