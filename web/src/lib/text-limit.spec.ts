import {
  buildingCreateSchema,
  equipmentCreateSchema,
  roomCreateSchema,
  userCreateSchema,
} from '@cm/contracts';
import { z } from 'zod';
import { lengthCount, maxLengthOf, maxLengthsOf } from './text-limit';

describe(maxLengthOf.name, () => {
  it('reads the limit through what wraps the text (optional, nullable, default, pipes, unions)', () => {
    expect(maxLengthOf(z.string().trim().max(12))).toBe(12);
    expect(
      maxLengthOf(
        z
          .string()
          .max(12)
          .nullish()
          .transform((v) => v ?? null),
      ),
    ).toBe(12);
    expect(maxLengthOf(z.string().max(12).default(''))).toBe(12);
    expect(maxLengthOf(z.union([z.literal(''), z.email().max(254)]).nullish())).toBe(254);
    expect(maxLengthOf(z.string())).toBeUndefined();
    expect(maxLengthOf(z.number().max(12))).toBeUndefined();
  });
});

describe(maxLengthsOf.name, () => {
  it('answers the limits the contract gives the forms', () => {
    expect(maxLengthsOf(buildingCreateSchema)).toEqual({ name: 120, description: 2000 });
    expect(maxLengthsOf(roomCreateSchema)).toEqual({ name: 120, floor: 32, roomSize: 120 });
    expect(maxLengthsOf(equipmentCreateSchema)).toEqual({
      name: 120,
      model: 120,
      serialNumber: 120,
      notes: 4000,
      type: 120,
    });
    expect(maxLengthsOf(userCreateSchema)).toMatchObject({ username: 64, password: 256, email: 254 });
  });
});

describe(lengthCount.name, () => {
  it('says nothing well short of the limit, counts from 80 % of it, and marks what is over', () => {
    expect(lengthCount('a'.repeat(25), 32)).toBeNull();
    expect(lengthCount('a'.repeat(26), 32)).toEqual({ length: 26, max: 32, over: false });
    expect(lengthCount('a'.repeat(32), 32)).toEqual({ length: 32, max: 32, over: false });
    expect(lengthCount('a'.repeat(40), 32)).toEqual({ length: 40, max: 32, over: true });
  });

  it('counts as the contract does, without the spaces at the ends', () => {
    expect(lengthCount(`  ${'a'.repeat(32)}  `, 32)).toEqual({ length: 32, max: 32, over: false });
  });

  it('counts nothing for a field without a limit or a value that is not text', () => {
    expect(lengthCount('a'.repeat(500), undefined)).toBeNull();
    expect(lengthCount(null, 32)).toBeNull();
  });
});
