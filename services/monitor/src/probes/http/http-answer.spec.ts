import { certificateExpiry, certificateFindings } from './http-answer';

describe(certificateFindings.name, () => {
  const now = new Date('2026-11-27T10:00:00Z');

  it('warns from the warning days before expiry on, and errs from the moment of expiry', () => {
    expect(certificateFindings(new Date('2026-12-18T10:00:01Z'), 21, now)).toEqual([]);
    expect(certificateFindings(new Date('2026-12-18T10:00:00Z'), 21, now)).toEqual([
      { state: 'warning', reason: 'TLS certificate expires on 2026-12-18' },
    ]);
    expect(certificateFindings(now, 21, now)).toEqual([
      { state: 'error', reason: 'TLS certificate expired on 2026-11-27' },
    ]);
  });
});

describe(certificateExpiry.name, () => {
  it('reads the date as TLS gives it, and nothing from a missing or garbled one', () => {
    expect(certificateExpiry('Feb  1 00:00:00 2024 GMT')?.toISOString()).toBe('2024-02-01T00:00:00.000Z');
    expect(certificateExpiry(undefined)).toBeUndefined();
    expect(certificateExpiry('soon')).toBeUndefined();
  });
});
