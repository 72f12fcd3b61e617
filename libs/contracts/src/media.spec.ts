import { detectImageType, objectKeySchema } from './media';

const bytes = (...parts: (number[] | string)[]) =>
  Uint8Array.from(parts.flatMap((p) => (typeof p === 'string' ? [...p].map((c) => c.charCodeAt(0)) : p)));

describe(detectImageType.name, () => {
  it.each([
    ['image/jpeg', bytes([0xff, 0xd8, 0xff, 0xe1], 'Exif')],
    ['image/png', bytes([0x89], 'PNG', [0x0d, 0x0a, 0x1a, 0x0a, 0, 0])],
    ['image/gif', bytes('GIF89a', [1, 0])],
    ['image/webp', bytes('RIFF', [0, 0, 0, 0], 'WEBPVP8 ')],
    ['image/avif', bytes([0, 0, 0, 0x20], 'ftypavif')],
  ])('recognises %s by its first bytes', (type, head) => {
    expect(detectImageType(head)).toBe(type);
  });

  it.each([
    ['SVG (can carry script)', bytes('<svg xmlns="http://www.w3.org/2000/svg">')],
    ['HEIC (most browsers cannot show it)', bytes([0, 0, 0, 0x18], 'ftypheic')],
    ['a PDF', bytes('%PDF-1.7')],
    ['HTML', bytes('<!doctype html>')],
    ['too few bytes', bytes([0xff, 0xd8])],
    ['nothing', bytes()],
  ])('refuses %s', (_label, head) => {
    expect(detectImageType(head)).toBeNull();
  });
});

describe('objectKeySchema', () => {
  it('accepts only keys media issues', () => {
    expect(objectKeySchema.safeParse('uploads/0b7e4c1a-9a5e-4c59-a0f3-3c1f2d7e8a90').success).toBe(true);
    for (const key of [
      'uploads/photo.jpg',
      '../uploads/x',
      'uploads/0b7e4c1a-9a5e-4c59-a0f3-3c1f2d7e8a90/x',
    ]) {
      expect(objectKeySchema.safeParse(key).success).toBe(false);
    }
  });
});
