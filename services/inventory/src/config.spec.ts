import { parseEnv } from '@cm/platform';
import { configSchema } from './config';

describe('inventory configuration', () => {
  const sut = (env: Record<string, string>) => parseEnv(configSchema, env);
  const networksOf = (env: Record<string, string>) => sut(env).MONITOR_ALLOWED_NETWORKS.map((n) => n.text);
  const problemsOf = (env: Record<string, string>) =>
    configSchema.safeParse(env).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`);

  it('takes addresses in the private ranges by default, and loopback too only in development and tests', () => {
    const campus = ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16'];
    expect(networksOf({ NODE_ENV: 'production' })).toEqual(campus);
    expect(networksOf({ NODE_ENV: 'test' })).toEqual([...campus, '127.0.0.0/8']);
    expect(networksOf({ NODE_ENV: 'development' })).toEqual([...campus, '127.0.0.0/8']);
    expect(networksOf({})).toEqual([...campus, '127.0.0.0/8']);
  });

  it('reads MONITOR_ALLOWED_NETWORKS as the monitor does, whatever NODE_ENV says', () => {
    expect(networksOf({ NODE_ENV: 'test', MONITOR_ALLOWED_NETWORKS: '10.20.0.0/16, 10.21.0.0/16' })).toEqual([
      '10.20.0.0/16',
      '10.21.0.0/16',
    ]);
  });

  it('refuses a list that is not one, with every other bad variable', () => {
    expect(
      problemsOf({ MONITOR_ALLOWED_NETWORKS: '10.0.0.0/33', INVENTORY_MAX_ADDRESSES_PER_RANGE: '255' }),
    ).toEqual([
      'MONITOR_ALLOWED_NETWORKS: "10.0.0.0/33" is not an IPv4 network such as 10.20.0.0/16',
      'INVENTORY_MAX_ADDRESSES_PER_RANGE: Too big: expected number to be <=254',
    ]);
    expect(problemsOf({ MONITOR_ALLOWED_NETWORKS: ' , ' })).toEqual([
      'MONITOR_ALLOWED_NETWORKS: must name at least one network, e.g. 10.0.0.0/8',
    ]);
  });

  it('caps a range at 64 addresses and the campus at 50,000 unless told otherwise', () => {
    expect(sut({})).toMatchObject({
      INVENTORY_MAX_ADDRESSES_PER_RANGE: 64,
      INVENTORY_MAX_MONITORED_ADDRESSES: 50_000,
    });
    expect(
      sut({ INVENTORY_MAX_ADDRESSES_PER_RANGE: '254', INVENTORY_MAX_MONITORED_ADDRESSES: '200000' }),
    ).toMatchObject({ INVENTORY_MAX_ADDRESSES_PER_RANGE: 254, INVENTORY_MAX_MONITORED_ADDRESSES: 200_000 });
    expect(problemsOf({ INVENTORY_MAX_MONITORED_ADDRESSES: '0' })).toHaveLength(1);
  });

  it('alerts after 2 failed checks by default, and takes 1 to 100', () => {
    expect(sut({})).toMatchObject({
      ALERT_AFTER_FAILED_CHECKS: 2,
      ALERT_GROUP_WINDOW_MS: 60_000,
      ALERT_FLAP_THRESHOLD: 4,
    });
    expect(sut({ ALERT_AFTER_FAILED_CHECKS: '1' }).ALERT_AFTER_FAILED_CHECKS).toBe(1);
    expect(problemsOf({ ALERT_AFTER_FAILED_CHECKS: '0', ALERT_FLAP_THRESHOLD: '101' })).toEqual([
      'ALERT_AFTER_FAILED_CHECKS: Too small: expected number to be >=1',
      'ALERT_FLAP_THRESHOLD: Too big: expected number to be <=100',
    ]);
  });

  it('reads the webhook key as 32 bytes of base64, and refuses anything else', () => {
    const key = Buffer.alloc(32, 7);
    expect(sut({ ALERTS_SECRET_KEY: key.toString('base64') }).ALERTS_SECRET_KEY).toEqual(key);
    expect(sut({}).ALERTS_SECRET_KEY).toBeUndefined();
    expect(problemsOf({ ALERTS_SECRET_KEY: 'correct horse battery staple' })).toEqual([
      'ALERTS_SECRET_KEY: must be 32 random bytes in base64, as `openssl rand -base64 32` prints them',
    ]);
  });

  it('wants SMTP_FROM with SMTP_HOST, and a user with a password', () => {
    expect(problemsOf({ SMTP_HOST: 'smtp.example.edu', SMTP_PASSWORD: 'pw' })).toEqual([
      'SMTP_FROM: is required with SMTP_HOST',
      'SMTP_USER: is required with SMTP_PASSWORD',
    ]);
    expect(sut({ SMTP_HOST: 'smtp.example.edu', SMTP_FROM: 'av@example.edu' })).toMatchObject({
      SMTP_PORT: 587,
      SMTP_SECURE: 'starttls',
    });
  });

  it('reads the webhook allow-list as host names', () => {
    expect(
      sut({ ALERTS_WEBHOOK_ALLOWED_HOSTS: 'Hooks.Slack.com, *.example.edu' }).ALERTS_WEBHOOK_ALLOWED_HOSTS,
    ).toEqual(['hooks.slack.com', '*.example.edu']);
    expect(problemsOf({ ALERTS_WEBHOOK_ALLOWED_HOSTS: 'https://x.example.edu/' })).toEqual([
      'ALERTS_WEBHOOK_ALLOWED_HOSTS: must be host names separated by commas, such as hooks.slack.com,*.example.edu (not: https://x.example.edu/)',
    ]);
  });

  it('lets webhooks reach this machine by default under npm start alone, and reads ALERTS_ALLOWED_TARGETS', () => {
    const hostsOf = (env: Record<string, string>) => sut(env).ALERTS_ALLOWED_TARGETS?.hosts;
    expect(hostsOf({ NODE_ENV: 'development' })).toEqual(['localhost']);
    expect(sut({ NODE_ENV: 'test' }).ALERTS_ALLOWED_TARGETS).toBeUndefined();
    expect(sut({ NODE_ENV: 'production' }).ALERTS_ALLOWED_TARGETS).toBeUndefined();
    expect(
      sut({ NODE_ENV: 'production', ALERTS_ALLOWED_TARGETS: '10.20.0.0/16, receiver.example.edu' })
        .ALERTS_ALLOWED_TARGETS,
    ).toMatchObject({
      networks: [{ address: '10.20.0.0', prefix: 16, family: 'ipv4' }],
      hosts: ['receiver.example.edu'],
    });
    expect(problemsOf({ ALERTS_ALLOWED_TARGETS: '10.0.0.0/8,https://x.example.edu/' })).toEqual([
      'ALERTS_ALLOWED_TARGETS: "https://x.example.edu/" is not an address, a network (10.20.0.0/16, fd00::/8) or a host name (receiver.example.edu, *.example.edu)',
    ]);
  });
});
