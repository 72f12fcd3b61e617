import { compareVersions } from './versions';

describe(compareVersions.name, () => {
  it('compares number by number, not as text', () => {
    const sorted = ['1.10', '1.9', '2.0', '1.2.1', '1.2', 'v1.02b', '1.02a'].sort(compareVersions);
    expect(sorted).toEqual(['1.2', '1.02a', 'v1.02b', '1.2.1', '1.9', '1.10', '2.0']);
  });

  it('takes the same version written alike as equal', () => {
    expect(compareVersions('1.05', '1.5')).toBe(0);
  });
});
