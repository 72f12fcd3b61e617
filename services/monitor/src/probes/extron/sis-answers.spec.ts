import { parseSisBanner, readSisFirmware, readSisPartNumber } from './sis-answers';

describe(parseSisBanner.name, () => {
  it('reads model, firmware and part number from the copyright line, whatever follows it', () => {
    const banner =
      '(c) Copyright 2019, Extron Electronics, DXP 84 HD 4K PLUS, V1.05, 60-1495-01\r\nFri, 27 Nov 2026 10:00:00\r\n\r\nPassword:';

    expect(parseSisBanner(banner)).toEqual({
      model: 'DXP 84 HD 4K PLUS',
      firmware: '1.05',
      partNumber: '60-1495-01',
    });
  });

  it('leaves out what a shorter banner does not say, and finds nothing in other text', () => {
    expect(parseSisBanner('(c) Copyright 2008, Extron Electronics, V2.01\r\n')).toEqual({
      model: undefined,
      firmware: '2.01',
      partNumber: undefined,
    });
    expect(parseSisBanner('login: ')).toBeUndefined();
  });
});

describe('SIS answers', () => {
  it('reads firmware and part number in plain and verbose answers, and nothing from an error', () => {
    expect(readSisFirmware('1.05')).toBe('1.05');
    expect(readSisFirmware('Ver01*1.05.0003')).toBe('1.05.0003');
    expect(readSisFirmware('E10')).toBeUndefined();
    expect(readSisPartNumber('Pno60-1495-01')).toBe('60-1495-01');
    expect(readSisPartNumber('E13')).toBeUndefined();
  });
});
