import { type z } from 'zod';

/** What a zod schema keeps about itself, read without depending on its class. */
interface Internals {
  _zod: {
    def: { type: string; innerType?: z.ZodType; in?: z.ZodType; out?: z.ZodType; options?: z.ZodType[] };
  };
  /** Text schemas (plain or a format such as email) answer their `max`. */
  maxLength?: number | null;
}

/**
 * The most characters a contract's text schema takes, looking through what wraps it (optional,
 * nullable, default, pipes, unions), or undefined when it sets no limit.
 */
export function maxLengthOf(schema: z.ZodType): number | undefined {
  const internals = schema as unknown as Internals;
  const { def } = internals._zod;
  switch (def.type) {
    case 'string':
      return internals.maxLength ?? undefined;
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
      return def.innerType ? maxLengthOf(def.innerType) : undefined;
    case 'pipe':
      return (def.in && maxLengthOf(def.in)) ?? (def.out && maxLengthOf(def.out));
    case 'union': {
      const limits = (def.options ?? []).map(maxLengthOf).filter((n) => n !== undefined);
      return limits.length ? Math.max(...limits) : undefined;
    }
    default:
      return undefined;
  }
}

/** The limit of each text field of an object schema (fields without one are left out). */
export function maxLengthsOf<Shape extends z.ZodRawShape>(
  schema: z.ZodObject<Shape>,
): Partial<Record<keyof Shape, number>> {
  const limits: Partial<Record<keyof Shape, number>> = {};
  for (const [name, field] of Object.entries(schema.shape) as [keyof Shape, z.ZodType][]) {
    const max = maxLengthOf(field);
    if (max !== undefined) limits[name] = max;
  }
  return limits;
}

/** From this share of the limit on, a field counts its characters (well before the last one). */
export const COUNTER_FROM = 0.8;

export interface LengthCount {
  length: number;
  max: number;
  over: boolean;
}

/**
 * What a field with a limit says about its length: nothing while it is well short of the limit,
 * then how many characters it holds. Counts as the contract does, after trimming the ends.
 */
export function lengthCount(value: unknown, max: number | undefined): LengthCount | null {
  if (max === undefined || typeof value !== 'string') return null;
  const length = value.trim().length;
  if (length < Math.ceil(max * COUNTER_FROM)) return null;
  return { length, max, over: length > max };
}
