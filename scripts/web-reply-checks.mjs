// Writes web/src/lib/reply-checks.ts: the contracts' response schemas, the live events' data and
// the error bodies the app reads, as plain data (string, number, object, array, union…, with the
// schemas' own regular expressions), which a checker of a few lines reads, so that checking a
// reply or an event needs neither zod nor the contracts on the first screen (issue 37's 120 kB).
// It checks what zod checks and answers what zod answers: unknown keys dropped, a strict object's
// refused, defaults filled in. A text's refinement or overwrite is copied as its source when it
// needs nothing but its argument (`(v) => v.trim()`). A route whose answer needs more (a
// transform, a refinement of an object, a function using other names) is left out: its reply is
// checked by zod, which then loads (web/src/lib/api-schemas.ts). web/src/lib/reply-checks.spec.ts
// holds both checks to the same verdicts. Reads the built contracts (libs/contracts/dist: `npx tsc
// -b`). `--check` fails instead of writing.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeGenerated } from './generated-file.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'web/src/lib/reply-checks.ts');
const { apiRoutes, errorBodySchema, liveEventSchema, staleWriteBodySchema } = createRequire(import.meta.url)(
  path.join(root, 'libs/contracts/dist/index.js'),
);

class Unsupported extends Error {}

/** Each schema once, as a node: [kind, …]; a node's children are indexes of other nodes. */
const nodes = [];
const indexOf = new Map();

function checksOf(def) {
  // A format schema (z.uuid(), z.int()) is its own first check.
  const own = def.check ? [def] : [];
  return [...own, ...(def.checks ?? []).map((c) => c._zod.def)];
}

/**
 * A refinement's or an overwrite's function, as its source, when it needs nothing but its argument
 * (`(v) => v.startsWith('/')`, `(input) => input.trim()`): an arrow function of one parameter
 * whose body names no other variable than it (a property or a method name after a dot is not one).
 */
function ownCode(fn, type) {
  const source = String(fn);
  const arrow = /^\(?(\w+)\)?\s*=>\s*([^{][\s\S]*)$/.exec(source);
  if (!arrow) throw new Unsupported(`code: ${source}`);
  const [, param, body] = arrow;
  const words = body
    .replace(/\/(?:\\.|\[(?:\\.|[^\]])*\]|[^/\\\n])+\/[a-z]*/g, ' ') // regular expressions
    .replace(/(["'`])(?:\\.|(?!\1).)*\1/g, ' ') // strings
    .replace(/\.\s*\w+/g, ' ') // properties and methods
    .match(/[A-Za-z_$][\w$]*/g);
  if ((words ?? []).some((w) => w !== param)) throw new Unsupported(`code: ${source}`);
  return new Code(`(${param}: ${type}) => ${body}`);
}

/** Source text to write as it is. */
class Code {
  constructor(source) {
    this.source = source;
  }
}

/** A check of any kind: a refinement (f) or an overwrite (w) as its code. */
function codeCheck(c, type) {
  if (c.check === 'custom' && !c.params && c.fn) return ['f', ownCode(c.fn, type)];
  if (c.check === 'overwrite') return ['w', ownCode(c.tx, type)];
  return undefined;
}

function stringChecks(def) {
  return checksOf(def).map((c) => {
    if (c.check === 'max_length') return ['max', c.maximum];
    if (c.check === 'min_length') return ['min', c.minimum];
    if (c.check === 'length_equals') return ['len', c.length];
    if (c.check === 'string_format' && c.pattern && !/[gy]/.test(c.pattern.flags)) return ['re', c.pattern];
    const code = codeCheck(c, 'string');
    if (code) return code;
    throw new Unsupported(`string check ${c.check} ${c.format ?? ''}`);
  });
}

function numberChecks(def) {
  return checksOf(def).map((c) => {
    if (c.check === 'number_format' && c.format === 'safeint') return ['int'];
    if (c.check === 'greater_than') return ['gt', c.value, c.inclusive];
    if (c.check === 'less_than') return ['lt', c.value, c.inclusive];
    const code = codeCheck(c, 'number');
    if (code) return code;
    throw new Unsupported(`number check ${c.check} ${c.format ?? ''}`);
  });
}

function node(schema) {
  if (indexOf.has(schema)) return indexOf.get(schema);
  const at = nodes.length;
  indexOf.set(schema, at);
  nodes.push(null);
  nodes[at] = describe(schema._zod.def);
  return at;
}

function describe(def) {
  const plain = ['optional', 'nullable'];
  if (def.checks?.length && !['string', 'number', 'array'].includes(def.type))
    throw new Unsupported(`checks on ${def.type}`);
  switch (def.type) {
    case 'string':
      return ['s', stringChecks(def)];
    case 'number':
      return ['n', numberChecks(def)];
    case 'boolean':
      return ['b'];
    case 'null':
      return ['z'];
    case 'unknown':
    case 'any':
      return ['u'];
    case 'never':
      return ['x'];
    case 'enum':
      return ['e', Object.values(def.entries)];
    case 'literal':
      return ['e', def.values];
    case 'object': {
      const strict = def.catchall?._zod.def.type === 'never';
      if (def.catchall && !strict) throw new Unsupported('an object keeping unknown keys');
      const shape = Object.fromEntries(Object.entries(def.shape).map(([k, v]) => [k, node(v)]));
      return strict ? ['o', shape, 1] : ['o', shape];
    }
    case 'union':
      return ['|', def.options.map(node)];
    case 'array': {
      const sizes = (def.checks ?? []).map(({ _zod: { def: c } }) => {
        if (c.check === 'max_length') return ['max', c.maximum];
        if (c.check === 'min_length') return ['min', c.minimum];
        throw new Unsupported(`list check ${c.check}`);
      });
      return ['a', node(def.element), ...(sizes.length ? [sizes] : [])];
    }
    case 'intersection':
      return ['&', node(def.left), node(def.right)];
    case 'default': {
      const value = def.defaultValue;
      if (JSON.stringify(value) === undefined || typeof value === 'function')
        throw new Unsupported('a default that is not JSON');
      return ['d', node(def.innerType), value];
    }
    case 'record':
      if (def.keyType._zod.def.type !== 'string' || checksOf(def.keyType._zod.def).length)
        throw new Unsupported('a record of other keys than text');
      return ['r', node(def.valueType)];
    default:
      if (plain.includes(def.type)) return [{ optional: '?', nullable: 'N' }[def.type], node(def.innerType)];
      throw new Unsupported(def.type);
  }
}

const checked = {};
const byZod = [];
for (const [name, route] of Object.entries(apiRoutes)) {
  if (!route.response) continue;
  const before = nodes.length;
  try {
    checked[name] = node(route.response);
  } catch (error) {
    if (!(error instanceof Unsupported)) throw error;
    // Forget what this route added: the nodes of its answer that were described.
    nodes.length = before;
    for (const [schema, index] of indexOf) if (index >= before) indexOf.delete(schema);
    byZod.push(name);
  }
}

// The live stream's events, by name: the stream is read from the first screen on, and zod loading
// for it would run on the main thread just as the first screen's answers arrive.
const liveEvents = {};
for (const option of liveEventSchema.options) {
  const [type] = option.shape.type._zod.def.values;
  liveEvents[type] = node(option.shape.data);
}
// Error bodies the web app reads beyond a code and a message, from code the first screen loads.
const bodies = { errorBody: node(errorBodySchema), staleWriteBody: node(staleWriteBodySchema) };

const literal = (value) =>
  value instanceof RegExp
    ? value.toString()
    : value instanceof Code
      ? value.source
      : Array.isArray(value)
        ? `[${value.map(literal).join(',')}]`
        : value && typeof value === 'object'
          ? `{${Object.entries(value)
              .map(([k, v]) => `${JSON.stringify(k)}:${literal(v)}`)
              .join(',')}}`
          : JSON.stringify(value);

const text = `// Written by scripts/web-reply-checks.mjs from the contracts' response schemas: do not edit.
// Each schema once, as data that ./reply-check.ts reads: [kind, …], children by their index.
// Kinds: s text (max, min, len, re), n number (int, gt, lt), b, z null, u unknown, x never,
// e one of values, o object (1: strict), a array, ? optional, N nullable, | union, r record,
// & both, d a default; a text's or number's check f (a refinement) or w (an overwrite) is the
// contract's own function, copied when it needs nothing but its argument.
import { type ReplyNode } from './reply-check';

export const nodes: ReplyNode[] = ${literal(nodes)};

/** Each route's answer, by its node. */
export const replies: Record<string, number> = ${literal(checked)};

/** Routes whose answers only zod checks (a transform, a default or a refinement in them). */
export const checkedByZod = ${literal(byZod)};

/** Each live event's \`data\`, by the event's name. */
export const liveEvents: Record<string, number> = ${literal(liveEvents)};

/** Error bodies read beyond their code and message, by name. */
export const bodies = ${literal(bodies)};
`;

writeGenerated(root, out, text, {
  stale: 'is out of date: run node scripts/web-reply-checks.mjs',
  wrote: `: ${Object.keys(checked).length} answers, ${byZod.length} by zod`,
});
