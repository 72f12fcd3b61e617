/**
 * A reply's check without zod: the contracts' response schemas as data (./reply-checks.ts, written
 * by scripts/web-reply-checks.mjs) and the few lines that read it, so that the first screen loads
 * neither zod nor the contracts (issue 37's 120 kB). Its verdicts and its output are zod's: an
 * object's unknown keys are dropped (a strict one's refused), a union answers its first option that
 * fits; reply-checks.spec.ts holds the two to the same.
 */
/** A contract's own refinement (f: fits or not) or overwrite (w: the value it becomes). */
type CodeCheck<T> = ['f', (v: T) => boolean] | ['w', (v: T) => T];
type Size = [kind: 'max' | 'min' | 'len', n: number];
type TextCheck = Size | ['re', RegExp] | CodeCheck<string>;
type NumberCheck = [kind: 'int'] | [kind: 'gt' | 'lt', n: number, inclusive: boolean] | CodeCheck<number>;

export type ReplyNode =
  | ['s', TextCheck[]]
  | ['n', NumberCheck[]]
  | ['b' | 'z' | 'u' | 'x']
  | ['e', unknown[]]
  | ['o', Record<string, number>, 1?]
  | ['a', number, Size[]?]
  | ['?' | 'N' | 'r', number]
  | ['|', number[]]
  | ['&', number, number]
  | ['d', number, unknown];

/** Where a reply first differs from its schema, and how. */
export interface ReplyProblem {
  path: (string | number)[];
  message: string;
}

const BAD = Symbol('bad');
type Checked = unknown;

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const sizeFits = (length: number, [kind, n]: Size) =>
  kind === 'max' ? length <= n : kind === 'min' ? length >= n : length === n;

/** The value after its checks, in their order (an overwrite changes it for the next), or BAD. */
function afterChecks(v: unknown, checks: (TextCheck | NumberCheck)[]): unknown {
  let value = v;
  for (const c of checks) {
    if (c[0] === 'w') value = (c[1] as (v: unknown) => unknown)(value);
    else if (!fits(value, c)) return BAD;
  }
  return value;
}

function fits(v: unknown, c: TextCheck | NumberCheck): boolean {
  switch (c[0]) {
    case 'f':
      return (c[1] as (v: unknown) => boolean)(v);
    case 'w':
      return true;
    case 're':
      return c[1].test(v as string);
    case 'int':
      return Number.isSafeInteger(v);
    case 'gt':
      return c[2] ? (v as number) >= c[1] : (v as number) > c[1];
    case 'lt':
      return c[2] ? (v as number) <= c[1] : (v as number) < c[1];
    default:
      return sizeFits((v as string).length, c);
  }
}

/** Both sides' answers as one, as zod's intersection makes it; BAD where they disagree. */
function merged(a: unknown, b: unknown): unknown {
  if (a === b) return a;
  if (isRecord(a) && isRecord(b)) {
    const both: Record<string, unknown> = { ...a, ...b };
    for (const key of Object.keys(b)) {
      if (!(key in a)) continue;
      const value = merged(a[key], b[key]);
      if (value === BAD) return BAD;
      both[key] = value;
    }
    return both;
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    const list = a.map((item, i) => merged(item, b[i]));
    return list.includes(BAD) ? BAD : list;
  }
  return BAD;
}

/** Reads `nodes`: answers a reply as zod's parse would, or fills `problem` and answers BAD. */
class Checker {
  readonly problem: ReplyProblem = { path: [], message: '' };
  constructor(private readonly nodes: ReplyNode[]) {}

  check(at: number, v: unknown): Checked {
    const node = this.nodes[at];
    switch (node[0]) {
      case 's':
      case 'n': {
        const kind = node[0] === 's' ? 'string' : 'number';
        const fine = typeof v === kind && (kind === 'string' || Number.isFinite(v));
        const value = fine ? afterChecks(v, node[1]) : BAD;
        return value === BAD ? this.fail(kind === 'string' ? 'Invalid text' : 'Invalid number') : value;
      }
      case 'd':
        return v === undefined ? structuredClone(node[2]) : this.check(node[1], v);
      case '&':
        return this.both(node[1], node[2], v);
      case 'b':
        return typeof v === 'boolean' ? v : this.fail('Expected true or false');
      case 'z':
        return v === null ? v : this.fail('Expected null');
      case 'u':
        return v;
      case 'x':
        return this.fail('Expected nothing');
      case 'e':
        return node[1].includes(v) ? v : this.fail(`Expected one of ${JSON.stringify(node[1])}`);
      case '?':
        return v === undefined ? v : this.check(node[1], v);
      case 'N':
        return v === null ? v : this.check(node[1], v);
      case 'a':
        return this.list(node, v);
      case 'r':
        return this.record(node[1], v);
      case 'o':
        return this.object(node, v);
      case '|':
        return this.oneOf(node[1], v);
    }
  }

  private fail(message: string): typeof BAD {
    this.problem.message = message;
    return BAD;
  }

  private inside(key: string | number, result: Checked): Checked {
    if (result === BAD) this.problem.path.unshift(key);
    return result;
  }

  private oneOf(options: number[], v: unknown): Checked {
    for (const option of options) {
      const tried = this.check(option, v);
      if (tried !== BAD) return tried;
      // Where that form differed is not where the reply did.
      this.problem.path = [];
    }
    return this.fail('Fits none of its forms');
  }

  private both(left: number, right: number, v: unknown): Checked {
    const a = this.check(left, v);
    if (a === BAD) return BAD;
    const b = this.check(right, v);
    if (b === BAD) return BAD;
    const value = merged(a, b);
    return value === BAD ? this.fail('Its parts disagree') : value;
  }

  private list([, item, sizes]: Extract<ReplyNode, ['a', ...unknown[]]>, v: unknown): Checked {
    if (!Array.isArray(v)) return this.fail('Expected a list');
    if (sizes && !sizes.every((size) => sizeFits(v.length, size))) return this.fail('Wrong number of items');
    const items: unknown[] = [];
    for (let i = 0; i < v.length; i++) {
      const checked = this.inside(i, this.check(item, v[i]));
      if (checked === BAD) return BAD;
      items.push(checked);
    }
    return items;
  }

  private record(value: number, v: unknown): Checked {
    if (!isRecord(v)) return this.fail('Expected an object');
    const kept: Record<string, unknown> = {};
    for (const key of Object.keys(v)) {
      const checked = this.inside(key, this.check(value, v[key]));
      if (checked === BAD) return BAD;
      kept[key] = checked;
    }
    return kept;
  }

  private object([, shape, strict]: Extract<ReplyNode, ['o', ...unknown[]]>, v: unknown): Checked {
    if (!isRecord(v)) return this.fail('Expected an object');
    const kept: Record<string, unknown> = {};
    for (const key of Object.keys(shape)) {
      const checked = this.inside(key, this.check(shape[key], v[key]));
      if (checked === BAD) return BAD;
      if (checked !== undefined || key in v) kept[key] = checked;
    }
    const extra = strict ? Object.keys(v).find((key) => !(key in shape)) : undefined;
    return extra === undefined ? kept : this.inside(extra, this.fail('Not expected here'));
  }
}

/** The reply as zod would answer it, or where it first differs from its schema. */
export function checkReply(
  nodes: ReplyNode[],
  at: number,
  reply: unknown,
): { success: true; data: unknown } | { success: false; problem: ReplyProblem } {
  const checker = new Checker(nodes);
  const data = checker.check(at, reply);
  return data === BAD ? { success: false, problem: checker.problem } : { success: true, data };
}
