import { webhookUrlRefusal } from './webhook-url';

describe(webhookUrlRefusal.name, () => {
  it('allows any http(s) host when no allow-list is set', () => {
    expect(webhookUrlRefusal('https://hooks.slack.com/services/T/B/X', undefined)).toBeNull();
    expect(webhookUrlRefusal('http://127.0.0.1:8080/hook', undefined)).toBeNull();
  });

  it('refuses other schemes, whatever the allow-list', () => {
    expect(webhookUrlRefusal('ftp://example.edu/x', undefined)).toMatch(/http/);
    expect(webhookUrlRefusal('file:///etc/passwd', ['example.edu'])).toMatch(/http/);
  });

  it('keeps to the allow-list, a leading *. taking any subdomain but not the bare domain', () => {
    const hosts = ['hooks.slack.com', '*.example.edu'];
    expect(webhookUrlRefusal('https://hooks.slack.com/x', hosts)).toBeNull();
    expect(webhookUrlRefusal('https://av.example.edu/x', hosts)).toBeNull();
    expect(webhookUrlRefusal('https://example.edu/x', hosts)).toMatch(/ALERTS_WEBHOOK_ALLOWED_HOSTS/);
    expect(webhookUrlRefusal('https://evilexample.edu/x', hosts)).toMatch(/may only go to/);
  });
});
