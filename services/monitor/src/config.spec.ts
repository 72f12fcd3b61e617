import { parseEnv } from '@cm/platform';
import { configSchema } from './config';

describe('monitor configuration', () => {
  const networksOf = (env: Record<string, string>) =>
    parseEnv(configSchema, env).MONITOR_ALLOWED_NETWORKS.map((n) => n.text);

  it('pings the private ranges by default, and loopback too only in development and tests', () => {
    expect(networksOf({ NODE_ENV: 'production' })).toEqual(['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16']);
    expect(networksOf({ NODE_ENV: 'test' })).toContain('127.0.0.0/8');
    expect(networksOf({ MONITOR_ALLOWED_NETWORKS: '198.18.0.0/15' })).toEqual(['198.18.0.0/15']);
  });
});
