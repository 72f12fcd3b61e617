import type * as LezerPromql from '@prometheus-io/lezer-promql' with { 'resolution-mode': 'require' };

// An ES module with a CommonJS build: required, as the tests compile to CommonJS.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { parser } = require('@prometheus-io/lezer-promql') as typeof LezerPromql;

export interface LabelMatcher {
  label: string;
  op: string;
  value: string;
}

export interface SelectorsOf {
  /** The metric name of each vector selector, in order. */
  metrics: string[];
  /** The label matchers of every selector. */
  matchers: LabelMatcher[];
  /** Why the expression cannot be checked: a syntax error, or a selector that hides its metric name. */
  problems: string[];
}

/**
 * The selectors of a PromQL expression, read with Prometheus's own grammar (the one its UI uses):
 * function, aggregation and keyword names, grouping labels and strings are not metric names.
 */
export function selectorsOf(expr: string): SelectorsOf {
  const out: SelectorsOf = { metrics: [], matchers: [], problems: [] };
  const text = (node: { from: number; to: number } | null) => (node ? expr.slice(node.from, node.to) : '');
  parser.parse(expr).iterate({
    enter: (ref) => {
      if (ref.type.isError)
        out.problems.push(`syntax error at ${ref.from}: …${expr.slice(ref.from, ref.from + 20)}`);
      if (ref.name === 'VectorSelector') {
        const name = ref.node.getChild('Identifier');
        if (name) out.metrics.push(text(name));
        else out.problems.push(`a selector without a metric name: ${text(ref.node)}`);
      }
      if (ref.name === 'UnquotedLabelMatcher') {
        const label = text(ref.node.getChild('LabelName'));
        const value = JSON.parse(text(ref.node.getChild('StringLiteral')).replace(/^'|'$/g, '"')) as string;
        out.matchers.push({ label, op: text(ref.node.getChild('MatchOp')), value });
        // `{__name__=~"cm_.*"}` would name metrics this check cannot see.
        if (label === '__name__') out.problems.push(`a metric chosen by __name__: ${text(ref.node)}`);
      }
    },
  });
  return out;
}

type SyntaxNode = ReturnType<typeof parser.parse>['topNode'];

const children = (node: SyntaxNode): SyntaxNode[] => {
  const all: SyntaxNode[] = [];
  for (let child = node.firstChild; child; child = child.nextSibling) all.push(child);
  return all;
};

const comparisons = new Set(['Eql', 'Neq', 'Gtr', 'Lss', 'Gte', 'Lte']);

/**
 * The part of an alert's expression whose value each firing sample carries (`$value` in its
 * annotations): of `a and b` and `a unless b`, `a`; of a comparison that filters (no `bool`), the
 * side that is not a number (`a > 3`, `3 < a`: `a`; two vectors: the left one); else the whole.
 */
export function alertValueOf(expr: string): string {
  let node: SyntaxNode = parser.parse(expr).topNode.firstChild!;
  for (;;) {
    const parts = children(node);
    if (node.name === 'ParenExpr') {
      node = parts[0];
      continue;
    }
    if (node.name !== 'BinaryExpr') break;
    const [left, op] = parts;
    const right = parts[parts.length - 1];
    const filters = comparisons.has(op.name) && !parts.some((p) => p.name === 'BoolModifier');
    if (op.name === 'And' || op.name === 'Unless') node = left;
    else if (filters) node = left.name === 'NumberDurationLiteral' ? right : left;
    else break;
  }
  return expr.slice(node.from, node.to);
}
