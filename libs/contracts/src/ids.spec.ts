import { idSchema } from './common';
import { isId } from './ids';

describe('isId', () => {
  it.each([
    '0b9a5d4e-8c1f-4a2b-9e3d-7f6a5b4c3d2e',
    '0B9A5D4E-8C1F-4A2B-9E3D-7F6A5B4C3D2E',
    '00000000-0000-0000-0000-000000000000',
    'ffffffff-ffff-ffff-ffff-ffffffffffff',
    '0b9a5d4e-8c1f-9a2b-9e3d-7f6a5b4c3d2e',
    '0b9a5d4e-8c1f-4a2b-7e3d-7f6a5b4c3d2e',
    '0b9a5d4e8c1f4a2b9e3d7f6a5b4c3d2e',
    'new',
    '',
  ])('agrees with idSchema on %j', (text) => {
    expect(isId(text)).toBe(idSchema.safeParse(text).success);
  });
});
