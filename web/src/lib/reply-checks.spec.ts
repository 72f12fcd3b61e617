import { apiRoutes, errorBodySchema, liveEventSchema, staleWriteBodySchema } from '@cm/contracts';
import { type z } from 'zod';
import { checkReply } from './reply-check';
import { bodies, checkedByZod, liveEvents, nodes, replies } from './reply-checks';

/** Text that fits each format the answers use. */
const formatted: Record<string, string> = {
  uuid: '00000000-0000-4000-8000-000000000001',
  datetime: '2026-11-28T08:00:00.000Z',
  date: '2026-11-28',
  email: 'tech@example.edu',
  regex: '07:30',
};

type Def = {
  type: string;
  format?: string;
  shape?: Record<string, z.ZodType>;
  options?: z.ZodType[];
  innerType?: z.ZodType;
  element?: z.ZodType;
  valueType?: z.ZodType;
  left?: z.ZodType;
  right?: z.ZodType;
  entries?: Record<string, unknown>;
  values?: unknown[];
  checks?: { _zod: { def: { format?: string } } }[];
};
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** An answer that fits `schema`: every key there, each list of two. */
function sample(schema: z.ZodType): unknown {
  const def = defOf(schema);
  switch (def.type) {
    case 'string': {
      const format = def.format ?? def.checks?.map((c) => c._zod.def.format).find(Boolean);
      return format ? formatted[format] : 'text';
    }
    case 'number':
      return 2;
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'unknown':
      return { any: ['thing'] };
    case 'enum':
      return Object.values(def.entries!)[0];
    case 'literal':
      return def.values![0];
    case 'object':
      return Object.fromEntries(Object.entries(def.shape!).map(([k, v]) => [k, sample(v)]));
    case 'array':
      return [sample(def.element!), sample(def.element!)];
    case 'record':
      return { a: sample(def.valueType!) };
    case 'union':
      return sample(def.options![def.options!.length - 1]);
    case 'intersection':
      return { ...(sample(def.left!) as object), ...(sample(def.right!) as object) };
    default:
      return sample(def.innerType!);
  }
}

/** Every place in an answer: the path to it. */
function places(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) return [path, ...value.flatMap((v, i) => places(v, [...path, i]))];
  if (value && typeof value === 'object')
    return [path, ...Object.entries(value).flatMap(([k, v]) => places(v, [...path, k]))];
  return [path];
}

function changed(value: unknown, path: (string | number)[], to: unknown): unknown {
  if (path.length === 0) return to;
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<
    string | number,
    unknown
  >;
  const [head, ...rest] = path;
  copy[head] = changed(copy[head], rest, to);
  return copy;
}

const others = [undefined, null, 0, -1, 1.5, 2 ** 60, '', 'x', '2026-11-28', true, [], {}, { extra: 1 }];

const routesWithAnswers = Object.entries(apiRoutes).filter(([, route]) => 'response' in route);

describe('the reply check without zod', () => {
  it('checks every answer, itself or by zod', () => {
    expect(routesWithAnswers.map(([name]) => name).sort()).toEqual(
      [...Object.keys(replies), ...checkedByZod].sort(),
    );
  });

  /** Our check and zod give the same verdicts, and keep the same, for a sample and its changes. */
  const sameAsZod = (schema: z.ZodType, at: number) => {
    const valid = sample(schema);
    const tried = [valid];
    for (const path of places(valid)) {
      for (const other of others) tried.push(changed(valid, path, other));
      // A key the contract does not have, next to the ones it has.
      const inside = path.reduce<unknown>((v, k) => (v as Record<string | number, unknown>)[k], valid);
      if (inside && typeof inside === 'object' && !Array.isArray(inside))
        tried.push(changed(valid, path, { ...inside, unknownKey: 'x' }));
    }
    let fits = 0;
    for (const reply of tried) {
      const byZod = schema.safeParse(reply);
      const ours = checkReply(nodes, at, reply);
      expect({ reply, success: ours.success }).toEqual({ reply, success: byZod.success });
      if (ours.success && byZod.success) {
        fits += 1;
        expect(ours.data).toEqual(byZod.data);
      }
    }
    // The sample itself fits: the comparison covered answers that pass, not only ones that fail.
    expect(fits).toBeGreaterThan(0);
  };

  it.each(routesWithAnswers.filter(([name]) => name in replies))(
    'answers %s as zod does: its verdict and what it keeps, for the answer and each change of one place in it',
    (name, route) => sameAsZod((route as { response: z.ZodType }).response, replies[name]),
  );

  it.each(liveEventSchema.options.map((option) => [option.shape.type.value, option.shape.data] as const))(
    'reads the live event %s as zod does',
    (type, data) => sameAsZod(data as z.ZodType, liveEvents[type]),
  );

  it('reads an error body, and that of a refused stale write, as zod does', () => {
    sameAsZod(errorBodySchema, bodies.errorBody);
    sameAsZod(staleWriteBodySchema, bodies.staleWriteBody);
  });

  it('says where an answer first differs', () => {
    const answer = [{ ...(sample(apiRoutes.listBuildings.response) as object[])[0], roomCount: 'two' }];
    const checked = checkReply(nodes, replies.listBuildings, answer);
    expect(checked).toEqual({
      success: false,
      problem: { path: [0, 'roomCount'], message: 'Invalid number' },
    });
  });
});
