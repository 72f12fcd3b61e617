import { readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import { isMap, isScalar, type Pair, parseDocument, type YAMLMap } from 'yaml';
import { helm, valueSets } from './support/helm';
import { chartDir } from './support/paths';

interface JsonSchema {
  description?: string;
  properties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
  $ref?: string;
}
const schema = JSON.parse(readFileSync(path.join(chartDir, 'values.schema.json'), 'utf8')) as JsonSchema & {
  definitions: Record<string, JsonSchema>;
};
const resolve = (s: JsonSchema): JsonSchema =>
  s.$ref ? resolve(schema.definitions[s.$ref.replace('#/definitions/', '')]) : s;
const valuesDocument = parseDocument(readFileSync(path.join(chartDir, 'values.yaml'), 'utf8'));

/** Every key of values.yaml with its path and whether a comment stands right above it. */
function keys(map: YAMLMap, prefix = ''): { path: string; documented: boolean; value: unknown }[] {
  return map.items.flatMap((pair: Pair, index) => {
    const key = pair.key as { value: string; commentBefore?: string | null };
    const at = `${prefix}${key.value}`;
    // yaml keeps the comment above the first key of a nested map on the map itself.
    const comment = key.commentBefore ?? (index === 0 ? map.commentBefore : undefined);
    const own = { path: at, documented: Boolean(comment?.trim()), value: pair.value };
    return isMap(pair.value) && pair.value.items.length ? [own, ...keys(pair.value, `${at}.`)] : [own];
  });
}
const valueKeys = keys(valuesDocument.contents as YAMLMap);
// The first key's comment is the document's: yaml keeps it on the document.
valueKeys[0].documented ||= Boolean(valuesDocument.commentBefore);

function schemaAt(keyPath: string): JsonSchema | undefined {
  let s: JsonSchema | undefined = schema;
  for (const part of keyPath.split('.')) s = s && resolve(s).properties?.[part];
  return s && resolve(s);
}

describe('chart values', () => {
  it('documents every value in values.yaml with a comment', () => {
    expect(valueKeys.filter((k) => !k.documented).map((k) => k.path)).toEqual([]);
    expect(valueKeys.length).toBeGreaterThan(100);
  });

  it('describes every value in values.schema.json, and knows no value values.yaml lacks', () => {
    expect(valueKeys.filter((k) => !schemaAt(k.path)?.description).map((k) => k.path)).toEqual([]);
    const walk = (s: JsonSchema, prefix: string): string[] =>
      Object.entries(resolve(s).properties ?? {}).flatMap(([name, child]) => [
        `${prefix}${name}`,
        ...walk(child, `${prefix}${name}.`),
      ]);
    const inValues = new Set(valueKeys.map((k) => k.path));
    expect(walk(schema, '').filter((p) => !inValues.has(p))).toEqual([]);
  });

  it('refuses unknown keys in every object of the schema', () => {
    const open: string[] = [];
    const visit = (s: JsonSchema, at: string) => {
      const r = resolve(s);
      if (r.properties) {
        if (r.additionalProperties !== false) open.push(at || '(root)');
        for (const [name, child] of Object.entries(r.properties))
          visit(child, `${at}${at ? '.' : ''}${name}`);
      }
    };
    visit(schema, '');
    expect(open).toEqual([]);
  });

  it.each(valueSets)('accepts $name', ({ files }) => {
    const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
    const defaults = valuesDocument.toJS();
    // Helm validates the defaults merged with the file, as here.
    for (const file of files) {
      const overrides = parseDocument(readFileSync(path.join(chartDir, file), 'utf8')).toJS();
      const merged = deepMerge(defaults, overrides);
      expect(validate(merged) ? [] : validate.errors).toEqual([]);
    }
    expect(validate(defaults) ? [] : validate.errors).toEqual([]);
  });

  it.each([
    ['a misspelt key', ['gateway.replicas=3'], /additional properties 'replicas' not allowed/],
    ['a key nested deep', ['auth.resources.limits.gpu=1'], /additional properties 'gpu' not allowed/],
    ['a log level no process knows', ['logLevel=trace'], /logLevel/],
    ['a short administrator password', ['auth.admin.password=short'], /password/],
    ['a database URL of another kind', ['postgresql.url=mysql://db/x'], /url/],
  ])('makes helm refuse %s', (_what, set, message) => {
    const { status, stderr } = helm(['template', 'cm', '.', ...set.flatMap((s) => ['--set', s])]);
    expect(status).not.toBe(0);
    expect(stderr).toMatch(message);
  });

  it('keeps the scalar defaults in values.yaml of the types the schema states', () => {
    for (const { path: at, value } of valueKeys) {
      if (!isScalar(value)) continue;
      const s = schemaAt(at) as { type?: string };
      if (s.type === 'integer')
        expect({ at, integer: Number.isInteger(value.value) }).toEqual({ at, integer: true });
      if (s.type === 'string') expect({ at, type: typeof value.value }).toEqual({ at, type: 'string' });
    }
  });
});

function deepMerge(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const current = out[key];
    out[key] =
      value && typeof value === 'object' && !Array.isArray(value) && current && typeof current === 'object'
        ? deepMerge(current as Record<string, unknown>, value as Record<string, unknown>)
        : value;
  }
  return out;
}
