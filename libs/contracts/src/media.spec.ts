import { buildingCreateSchema, buildingUpdateSchema } from './buildings';
import { equipmentCreateSchema, equipmentUpdateSchema } from './equipment';
import { describeZodError } from './errors';
import { detectImageType, keyOfObjectPath, objectKeySchema } from './media';
import { roomCreateSchema, roomUpdateSchema } from './rooms';

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

const key = 'uploads/0b7e4c1a-9a5e-4c59-a0f3-3c1f2d7e8a90';
const ours = `/objects/${key}`;
/** What a stored picture field must never hold: pages show it as an image with the viewer's cookie. */
const foreign = [
  '/api/logout',
  '/api/logout?x=.png',
  'https://evil.example/x.png',
  '//evil.example/objects/uploads/0b7e4c1a-9a5e-4c59-a0f3-3c1f2d7e8a90',
  'javascript:alert(1)',
  'data:image/png;base64,iVBORw0KGgo=',
  '/objects/uploads/photo.jpg',
  '/objects/uploads/0b7e4c1a-9a5e-4c59-a0f3-3c1f2d7e8a90/../../api/logout',
  '/objects/uploads/0b7e4c1a-9a5e-4c59-a0f3-3c1f2d7e8a90?next=/api/logout',
  '/objects/uploads/0B7E4C1A-9A5E-4C59-A0F3-3C1F2D7E8A90',
  '/api/../objects/uploads/0b7e4c1a-9a5e-4c59-a0f3-3c1f2d7e8a90',
];

describe(keyOfObjectPath.name, () => {
  it('answers the key of a path the product produces', () => {
    expect(keyOfObjectPath(ours)).toBe(key);
  });

  it.each(foreign)('answers null for %s', (path) => {
    expect(keyOfObjectPath(path)).toBeNull();
  });
});

describe('picture fields', () => {
  const schemas = [
    ['building imageUrl', buildingCreateSchema, { name: 'Hall' }, 'imageUrl', 'Image URL'],
    ['building edit imageUrl', buildingUpdateSchema, { name: 'Hall' }, 'imageUrl', 'Image URL'],
    ['room imageUrl', roomCreateSchema, { name: '1', type: 'Office', floor: '1' }, 'imageUrl', 'Image URL'],
    ['room wiringDiagramUrl', roomUpdateSchema, {}, 'wiringDiagramUrl', 'Wiring diagram URL'],
    ['room seatingLayoutUrl', roomUpdateSchema, {}, 'seatingLayoutUrl', 'Seating layout URL'],
    ['equipment imageUrl', equipmentCreateSchema, { name: 'Projector' }, 'imageUrl', 'Image URL'],
    ['equipment edit imageUrl', equipmentUpdateSchema, { name: 'Projector' }, 'imageUrl', 'Image URL'],
  ] as const;

  describe.each(schemas)('%s', (_label, schema, base, field, name) => {
    it('takes an object path the product produces', () => {
      expect(schema.parse({ ...base, [field]: ` ${ours} ` })).toMatchObject({ [field]: ours });
    });

    it.each(['', '   ', null])('clears the picture when sent %j', (empty) => {
      expect(schema.parse({ ...base, [field]: empty })).toMatchObject({ [field]: null });
    });

    it.each(foreign)('refuses %s, naming the field', (value) => {
      const result = schema.safeParse({ ...base, [field]: value });
      expect(result.success).toBe(false);
      const { message, errors } = describeZodError(result.error!);
      expect(message).toBe(
        `${name} must be a picture uploaded to Classroom Monitor (a path under /objects/uploads/). Upload the image instead of typing an address.`,
      );
      expect(errors.map((e) => e.path)).toEqual([field]);
    });
  });
});
