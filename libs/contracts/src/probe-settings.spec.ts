import { probePortOf, probeSettingsSchema } from './device-health';

describe('HTTP probe settings', () => {
  const parse = (path: string) => probeSettingsSchema.safeParse({ type: 'http', path });

  it('takes a path with its query, and refuses one an HTTP request line cannot carry', () => {
    expect(parse('/status?format=json')).toMatchObject({
      success: true,
      data: { path: '/status?format=json' },
    });
    expect(parse('/my page').error?.issues[0]?.message).toBe(
      'HTTP path must not contain spaces or special characters; write them encoded, such as %20 for a space',
    );
    expect(parse('/a\u0007b').success).toBe(false);
    expect(parse('/caf%C3%A9').success).toBe(true);
  });
});

describe(probePortOf.name, () => {
  it("answers the probe's own port, else its protocol's, with HTTPS on 443 and none for ping", () => {
    expect(probePortOf({ type: 'pjlink', port: 14352 })).toBe(14352);
    expect(probePortOf({ type: 'snmp' })).toBe(161);
    expect(probePortOf({ type: 'http' })).toBe(80);
    expect(probePortOf({ type: 'http', https: true })).toBe(443);
    expect(probePortOf({ type: 'icmp' })).toBeUndefined();
  });
});
