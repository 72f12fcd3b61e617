import { buildingCreateSchema } from './buildings';
import { maintenanceWindowUpdateSchema } from './maintenance';
import { presetProducts, productCategories } from './catalogue';
import { equipmentCreateSchema, equipmentStatuses } from './equipment';
import { describeZodError } from './errors';
import { roomCreateSchema, roomTypes, roomUpdateSchema } from './rooms';
import { loginSchema, userCreateSchema, userRoles, userUpdateSchema } from './users';

function messagesOf(result: { success: boolean; error?: import('zod').ZodError }): string {
  if (result.success || !result.error) throw new Error('expected a validation failure');
  return describeZodError(result.error).message;
}

describe('contract schemas', () => {
  it('has the spec lists: 13 room types, 4 statuses, 2 roles, 22 presets in 6 categories', () => {
    expect(roomTypes).toHaveLength(13);
    expect(equipmentStatuses).toEqual(['active', 'inactive', 'maintenance', 'partial']);
    expect(userRoles).toEqual(['user', 'admin']);
    expect(presetProducts).toHaveLength(22);
    expect(new Set(presetProducts.map((p) => p.category))).toEqual(new Set(productCategories));
    expect(new Set(presetProducts.map((p) => p.model)).size).toBe(22);
  });

  it('asks for a building name with the spec message', () => {
    expect(messagesOf(buildingCreateSchema.safeParse({ name: '   ' }))).toBe('Building name is required');
    expect(buildingCreateSchema.parse({ name: 'Science Hall', description: '' })).toEqual({
      name: 'Science Hall',
      description: null,
      imageUrl: null,
    });
  });

  it('names both missing sign-in fields', () => {
    expect(messagesOf(loginSchema.safeParse({}))).toBe('Username is required. Password is required');
  });

  it('fills room defaults and turns numeric text into a capacity', () => {
    const room = roomCreateSchema.parse({ name: '101', type: 'Classroom', floor: '1', capacity: '30' });
    expect(room).toMatchObject({ capacity: 30, isAdaAccessible: 1, roomSize: null, imageUrl: null });
    expect(messagesOf(roomCreateSchema.safeParse({ name: '101', type: 'Gym', floor: '1' }))).toContain(
      'Type must be one of',
    );
    expect(
      messagesOf(roomCreateSchema.safeParse({ name: '101', type: 'Office', floor: '1', capacity: -1 })),
    ).toBe('Capacity must be 0 or more');
  });

  it('lets a room update carry only an attachment, and nothing else changes', () => {
    expect(
      roomUpdateSchema.parse({ wiringDiagramUrl: '/objects/uploads/0b7e4c1a-9a5e-4c59-a0f3-3c1f2d7e8a90' }),
    ).toEqual({
      wiringDiagramUrl: '/objects/uploads/0b7e4c1a-9a5e-4c59-a0f3-3c1f2d7e8a90',
    });
    expect(messagesOf(roomUpdateSchema.safeParse({}))).toBe('Send at least one field to change');
  });

  it('validates equipment addresses and defaults the status to active', () => {
    expect(equipmentCreateSchema.parse({ name: 'Projector', ipAddress: '' })).toMatchObject({
      ipAddress: null,
      status: 'active',
    });
    expect(equipmentCreateSchema.parse({ name: 'Mics', ipAddress: '10.1.1.70-73' }).ipAddress).toBe(
      '10.1.1.70-73',
    );
    expect(
      messagesOf(equipmentCreateSchema.safeParse({ name: 'Mics', ipAddress: '10.1.1.80-73' })),
    ).toContain('must not be below its start');
    expect(messagesOf(equipmentCreateSchema.safeParse({ name: 'X', status: 'online' }))).toContain(
      'Status must be one of',
    );
  });

  // Picture fields take only object paths, so their own test covers what else they refuse.
  it('refuses NUL and half surrogate pairs in every text field, naming the field, and keeps emoji', () => {
    const valid = {
      building: { name: 'Science Hall', description: 'North' },
      room: { name: '101', type: 'Classroom', floor: '1', roomSize: '30 x 40' },
      equipment: { name: 'Projector', model: 'X1', serialNumber: 'S1', notes: 'n', type: 't' },
    };
    const cases = [
      [buildingCreateSchema, valid.building, 'name', 'Building name'],
      [buildingCreateSchema, valid.building, 'description', 'Description'],
      [roomCreateSchema, valid.room, 'name', 'Room name'],
      [roomCreateSchema, valid.room, 'floor', 'Floor'],
      [roomCreateSchema, valid.room, 'roomSize', 'Room size'],
      [equipmentCreateSchema, valid.equipment, 'model', 'Model'],
      [equipmentCreateSchema, valid.equipment, 'serialNumber', 'Serial number'],
      [equipmentCreateSchema, valid.equipment, 'notes', 'Notes'],
      [userUpdateSchema, { username: 'ana' }, 'firstName', 'First name'],
    ] as const;
    for (const [schema, base, field, label] of cases) {
      expect(messagesOf(schema.safeParse({ ...base, [field]: 'a\u0000b' }))).toBe(
        `${label} must not contain NUL characters`,
      );
      expect(messagesOf(schema.safeParse({ ...base, [field]: 'x\ud800' }))).toBe(
        `${label} must be valid Unicode text (it holds half of a surrogate pair)`,
      );
      expect(schema.parse({ ...base, [field]: 'Lab 🔬' })).toMatchObject({ [field]: 'Lab 🔬' });
    }
  });

  it('requires a password on create but keeps the current one when blank on update', () => {
    expect(messagesOf(userCreateSchema.safeParse({ username: 'ana' }))).toBe('Password is required');
    expect(userCreateSchema.parse({ username: 'ana', password: 'pw long enough' })).toMatchObject({
      role: 'user',
      isActive: 1,
    });
    expect(userUpdateSchema.parse({ username: 'ana', password: '' }).password).toBeUndefined();
    for (const schema of [userCreateSchema, userUpdateSchema])
      expect(messagesOf(schema.safeParse({ username: 'ana', password: 'eleven char' }))).toBe(
        'Password must be at least 12 characters',
      );
    // Sign-in takes a password set before the rule.
    expect(loginSchema.parse({ username: 'ana', password: 'pw' }).password).toBe('pw');
  });

  it('takes usernames in NFKC form and refuses control and invisible characters', () => {
    for (const schema of [loginSchema, userCreateSchema, userUpdateSchema]) {
      expect(schema.parse({ username: ' ｋａｔｅ ', password: 'pw long enough' }).username).toBe('kate');
      expect(schema.parse({ username: 'ﬁona', password: 'pw long enough' }).username).toBe('fiona');
    }
    const invisible =
      'Username cannot contain control characters or invisible characters such as zero-width spaces';
    for (const username of [
      'ka\u200bte',
      'kate\u200d',
      'ka\ufeffte',
      'ka\u0007te',
      'ka\u202ete',
      'ka\u3164te',
      'ka\u00adte',
    ]) {
      expect([
        username,
        messagesOf(userCreateSchema.safeParse({ username, password: 'pw long enough' })),
      ]).toEqual([username, invisible]);
    }
    // The limit counts the stored (normalised) form: one ligature can expand to 18 characters.
    expect(
      messagesOf(userCreateSchema.safeParse({ username: '\ufdfa'.repeat(4), password: 'pw long enough' })),
    ).toBe('Username must be at most 64 characters');
  });

  it('refuses a new username that mixes scripts, such as Cyrillic letters in a Latin name', () => {
    const mixed =
      "Username mixes Cyrillic and Latin letters, which can make it look like another user's name. Use the letters of one alphabet.";
    // "раul": Cyrillic р and а, Latin u and l.
    for (const schema of [userCreateSchema, userUpdateSchema])
      expect(messagesOf(schema.safeParse({ username: '\u0440\u0430ul', password: 'pw long enough' }))).toBe(
        mixed,
      );
    expect(
      messagesOf(userCreateSchema.safeParse({ username: 'p\u0430ul', password: 'pw long enough' })),
    ).toBe(
      "Username mixes Latin and Cyrillic letters, which can make it look like another user's name. Use the letters of one alphabet.",
    );
    // One script with digits and punctuation; Japanese, which mixes three scripts by nature.
    for (const username of [
      'paul.smith-2',
      'павел',
      'Σωκράτης',
      '田中たなかタナカ',
      'tanaka田中',
      'josé',
      'ゆき_01',
    ])
      expect(userCreateSchema.parse({ username, password: 'pw long enough' }).username).toBe(username);
    // Sign-in still finds a name stored before the rule.
    expect(loginSchema.parse({ username: '\u0440\u0430ul', password: 'pw' }).username).toBe('\u0440\u0430ul');
  });

  it('takes line breaks, tabs and other controls out of single-line text, and keeps the lines of notes', () => {
    const building = buildingCreateSchema.parse({
      name: 'Science\r\nHall\u0007\u202e',
      description: 'First line\r\nSecond\tline\u001b[31m\rThird',
    });
    expect(building).toMatchObject({
      name: 'Science Hall',
      description: 'First line\nSecond\tline[31m\nThird',
    });
    const room = roomCreateSchema.parse({
      name: '101\n',
      type: 'Classroom',
      floor: '1\u2028A',
      roomSize: '\t',
    });
    expect(room).toMatchObject({ name: '101', floor: '1 A', roomSize: null });
    const equipment = equipmentCreateSchema.parse({
      name: 'Projector\r\nX',
      notes: 'Lamp\nchanged',
      model: 'a\u0085b',
    });
    expect(equipment).toMatchObject({ name: 'Projector X', notes: 'Lamp\nchanged', model: 'a b' });
    expect(
      userCreateSchema.parse({ username: 'ana', password: 'pw long enough', firstName: 'Ana\r\n' }).firstName,
    ).toBe('Ana');
    expect(messagesOf(buildingCreateSchema.safeParse({ name: '\r\n\t' }))).toBe('Building name is required');
    expect(messagesOf(buildingCreateSchema.safeParse({ name: 'a\u0000b' }))).toBe(
      'Building name must not contain NUL characters',
    );
    expect(maintenanceWindowUpdateSchema.parse({ reason: 'Lamp\r\nreplacement' })).toEqual({
      reason: 'Lamp\nreplacement',
    });
  });

  it('holds an email to the 254 characters the column takes', () => {
    const email = (length: number) => `${'a'.repeat(64)}@${'b'.repeat(length - 64 - 1 - 4)}.edu`;
    expect(
      userCreateSchema.parse({ username: 'ana', password: 'pw long enough', email: email(254) }).email,
    ).toHaveLength(254);
    for (const schema of [userCreateSchema, userUpdateSchema]) {
      expect(
        messagesOf(schema.safeParse({ username: 'ana', password: 'pw long enough', email: email(255) })),
      ).toBe('Email must be at most 254 characters');
    }
  });
});
