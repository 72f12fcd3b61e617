import { QUIET_ZONE, qrPath } from './qr-path';

describe('qrPath', () => {
  it('draws one square per dark module inside the quiet zone', () => {
    const { d, size } = qrPath([
      [true, false],
      [false, true],
    ]);
    expect(size).toBe(2 + 2 * QUIET_ZONE);
    expect(d).toBe('M4 4h1v1h-1zM5 5h1v1h-1z');
  });

  it('draws nothing for a blank grid', () => {
    expect(qrPath([[false]]).d).toBe('');
  });
});
