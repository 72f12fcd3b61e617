import { keyFromStoreUrl } from './store-url';

describe(keyFromStoreUrl.name, () => {
  const key = 'uploads/0b7e4c1a-9a5e-4c59-a0f3-3c1f2d7e8a90';
  const sut = (raw: string, forcePathStyle = true) =>
    keyFromStoreUrl(raw, {
      endpoints: ['https://files.example.edu', 'http://minio:9000'],
      bucket: 'cm-media',
      forcePathStyle,
    });

  it('finds the key in a path-style URL of either endpoint, ignoring the signature', () => {
    expect(sut(`https://files.example.edu/cm-media/${key}?X-Amz-Signature=abc`)).toBe(key);
    expect(sut(`http://minio:9000/cm-media/${key}`)).toBe(key);
  });

  it('finds the key in a virtual-hosted URL when path style is off', () => {
    expect(sut(`https://cm-media.files.example.edu/${key}`, false)).toBe(key);
    expect(sut(`https://files.example.edu/cm-media/${key}`, false)).toBeNull();
  });

  it.each([
    ['another host', `https://files.example.edu.evil.test/cm-media/${key}`],
    ['credentials before a host', `https://files.example.edu@evil.test/cm-media/${key}`],
    ['another scheme', `http://files.example.edu/cm-media/${key}`],
    ['another port', `http://minio:9001/cm-media/${key}`],
    ['another bucket', `https://files.example.edu/cm-media-2/${key}`],
    ['a dot segment', `https://files.example.edu/cm-media/x/../${key}`],
    ['an encoded dot segment', `https://files.example.edu/cm-media/%2E%2E/cm-media/${key}`],
    [
      'a key outside uploads/',
      'https://files.example.edu/cm-media/other/0b7e4c1a-9a5e-4c59-a0f3-3c1f2d7e8a90',
    ],
    ['a user file name', 'https://files.example.edu/cm-media/uploads/holiday.jpg'],
    ['a nested key', `https://files.example.edu/cm-media/${key}/x`],
    ['not a URL', 'uploads/0b7e4c1a-9a5e-4c59-a0f3-3c1f2d7e8a90'],
    ['a fragment', `https://files.example.edu/cm-media/${key}#x`],
  ])('refuses %s', (_label, raw) => {
    expect(sut(raw)).toBeNull();
  });
});
