import { createHmac, randomBytes } from 'node:crypto';
import { newWebhookSecret, openSecret, sealSecret, webhookSignature } from './secret-box';

describe('webhook secrets', () => {
  const key = randomBytes(32);
  const channelId = '3f9e0a52-8a3e-4a2f-9c1e-6f1f0b2d7c11';

  it('opens what it sealed, and stores nothing of the secret in clear', () => {
    const secret = newWebhookSecret();
    const sealed = sealSecret(key, secret, channelId);
    expect(sealed).not.toContain(secret.slice(6));
    expect(openSecret(key, sealed, channelId)).toBe(secret);
  });

  it('refuses to open with another key or for another channel', () => {
    const sealed = sealSecret(key, newWebhookSecret(), channelId);
    expect(() => openSecret(randomBytes(32), sealed, channelId)).toThrow();
    expect(() => openSecret(key, sealed, '00000000-0000-4000-8000-000000000000')).toThrow();
  });

  it('signs "<t>.<body>" with HMAC-SHA256, as the documentation tells a receiver to check', () => {
    const body = JSON.stringify({ version: 1, text: 'hello' });
    const expected = createHmac('sha256', 'whsec_x').update(`1764000000.${body}`).digest('hex');
    expect(webhookSignature('whsec_x', body, 1764000000)).toBe(`t=1764000000,v1=${expected}`);
  });
});
