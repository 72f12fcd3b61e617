import { parseEnv } from '@cm/platform';
import { configSchema } from '../config';

describe('the readiness settings', () => {
  const problemsOf = (env: Record<string, string>) =>
    configSchema.safeParse(env).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`);

  it('checks a room 20 minutes before its class by default, and takes 1 to 240', () => {
    expect(parseEnv(configSchema, {})).toMatchObject({
      READINESS_LEAD_MINUTES: 20,
      READINESS_TICK_MS: 30_000,
    });
    expect(parseEnv(configSchema, { READINESS_LEAD_MINUTES: '45' }).READINESS_LEAD_MINUTES).toBe(45);
    expect(problemsOf({ READINESS_LEAD_MINUTES: '0', READINESS_TICK_MS: '10' })).toEqual([
      'READINESS_LEAD_MINUTES: Too small: expected number to be >=1',
      'READINESS_TICK_MS: Too small: expected number to be >=1000',
    ]);
    expect(problemsOf({ READINESS_LEAD_MINUTES: '241' })).toEqual([
      'READINESS_LEAD_MINUTES: Too big: expected number to be <=240',
    ]);
  });
});
