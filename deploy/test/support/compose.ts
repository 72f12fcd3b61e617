import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { fromRoot } from './paths';

export interface ComposeService {
  image?: string;
  build?: { context: string; target?: string };
  environment?: Record<string, string | number | boolean | null>;
  depends_on?: Record<string, { condition: string }>;
  ports?: string[];
  cap_add?: string[];
  cap_drop?: string[];
  read_only?: boolean;
  volumes?: string[];
  healthcheck?: { test: string[] };
  restart?: string;
  logging?: { driver?: string; options?: Record<string, string | number> };
}
export interface ComposeFile {
  services: Record<string, ComposeService>;
  networks?: Record<string, { ipam?: { config?: { subnet?: string }[] } }>;
  volumes?: Record<string, unknown>;
}

export const composeText = readFileSync(fromRoot('docker-compose.yml'), 'utf8');
/** docker-compose.yml as Compose reads it: anchors and `<<` merge keys resolved. */
export const compose = parse(composeText, { merge: true }) as ComposeFile;

/**
 * A value after Compose's interpolation: `${VAR:-default}` takes the default unless `set` gives
 * VAR, a required `${VAR:?message}` or plain `${VAR}` takes `given(VAR)`, `$$` is a literal `$`.
 */
export function interpolate(
  value: string,
  given: (name: string) => string,
  set: Record<string, string> = {},
): string {
  return value
    .replace(
      /\$\{(\w+)(?::?([-?])((?:[^{}]|\{[^{}]*\})*))?\}/g,
      (_all, name: string, op?: string, rest?: string) =>
        op === '-' ? (set[name] ?? interpolate(rest ?? '', given, set)) : given(name),
    )
    .replace(/\$\$/g, '$');
}
