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
});
