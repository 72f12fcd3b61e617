import { readinessReasons } from './readiness-rules';

const names = new Map([
  ['p', { name: 'Projector', ipAddress: '10.1.2.3' }],
  ['d', { name: 'Display', ipAddress: '10.1.2.4' }],
  ['m', { name: 'Microphone', ipAddress: null }],
]);

describe('readinessReasons', () => {
  it('names each device offline or partly answering, and each deep probe that did not answer well', () => {
    expect(
      readinessReasons(
        {
          equipment: [
            {
              equipmentId: 'p',
              status: 'active',
              rttMs: 1,
              probe: { type: 'pjlink', outcome: 'auth-failed' },
            },
            { equipmentId: 'd', status: 'inactive', rttMs: null, probe: null },
            {
              equipmentId: 'm',
              status: 'partial',
              rttMs: 1,
              probe: { type: 'http', outcome: 'protocol-error', detail: 'HTTP 500' },
            },
          ],
        },
        names,
      ),
    ).toEqual([
      'Projector (10.1.2.3): deep probe auth-failed',
      'Display (10.1.2.4) offline',
      'Microphone partly answering',
      'Microphone: HTTP 500',
    ]);
  });

  it('names each device whose ping or deep probe had not answered when the check answered', () => {
    expect(
      readinessReasons(
        {
          equipment: [
            { equipmentId: 'p', status: 'active', rttMs: 1, probe: null, pending: true },
            { equipmentId: 'd', status: null, rttMs: null, probe: null, pending: true },
          ],
        },
        names,
      ),
    ).toEqual([
      'Projector (10.1.2.3): deep probe not answering within 2 s',
      'Display (10.1.2.4) not answering within 2 s',
    ]);
  });

  it('finds nothing in a room whose devices answer', () => {
    const ok = {
      equipmentId: 'p',
      status: 'active' as const,
      rttMs: 1,
      probe: { type: 'pjlink' as const, outcome: 'answered' as const },
    };
    expect(readinessReasons({ equipment: [ok] }, names)).toEqual([]);
  });
});
