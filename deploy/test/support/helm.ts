import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { chartDir, repoRoot } from './paths';

export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  [field: string]: unknown;
}

let helmPath: string | undefined;
function helmBin(): string {
  helmPath ??= execFileSync('node', [path.join(repoRoot, 'deploy/scripts/ensure-helm.mjs'), '--path'], {
    encoding: 'utf8',
  });
  return helmPath;
}

export function helm(args: string[]): { status: number; stdout: string; stderr: string } {
  const result = spawnSync(helmBin(), args, {
    encoding: 'utf8',
    cwd: chartDir,
    env: { ...process.env, HELM_DEBUG: '' },
  });
  if (result.error) throw result.error;
  return { status: result.status ?? 1, stdout: result.stdout, stderr: result.stderr };
}

/** The value files the chart is checked with: the defaults, then every file under ci/. */
export const valueSets: { name: string; files: string[] }[] = [
  { name: 'default values', files: [] },
  ...readdirSync(path.join(chartDir, 'ci'))
    .filter((file) => file.endsWith('.yaml'))
    .sort()
    .map((file) => ({ name: `ci/${file}`, files: [path.join('ci', file)] })),
];

export const releaseNamespace = 'campus';

/** `helm template` of the release with these value files and `--set` assignments, never deployed. */
function templateArgs(files: string[], set: string[]): string[] {
  const args = ['template', 'cm', '.', '--namespace', releaseNamespace];
  args.push('--set', 'allowGeneratedSecretsWithoutCluster=true');
  for (const file of files) args.push('--values', file);
  for (const assignment of set) args.push('--set', assignment);
  return args;
}

/** helm's error for values the chart must refuse (schema or template), or '' when it renders. */
export function refusal(set: string[]): string {
  const { status, stderr } = helm(templateArgs([], set));
  return status === 0 ? '' : stderr;
}

/**
 * `helm template` output as objects; throws with helm's message when rendering fails.
 * Without a cluster the chart refuses to generate the session key and NATS passwords, as each
 * rendering would make new ones (secrets.spec.ts); these renders are never deployed, so they allow it.
 */
export function render(files: string[] = [], set: string[] = []): Manifest[] {
  const { status, stdout, stderr } = helm(templateArgs(files, set));
  if (status !== 0) throw new Error(stderr.trim());
  return parseAllDocuments(stdout)
    .map((doc) => doc.toJS() as Manifest | null)
    .filter((manifest): manifest is Manifest => manifest !== null);
}

export const componentOf = (manifest: Manifest) =>
  manifest.metadata.labels?.['app.kubernetes.io/component'] ?? '';
