// Packages the Helm chart and pushes it to an OCI registry (docs/operations.md, Releasing the chart).
//
// A dry run unless --push is given: it lints and packages the chart, then prints the push it would
// make. Nothing in CI runs it with --push; a maintainer does, after `helm registry login <host>`.
//
// Usage: node deploy/scripts/release-chart.mjs --registry oci://<host>/<path> [--push] [--out <dir>]
//   --registry  where to push (or CHART_REGISTRY), e.g. oci://registry.campus.edu/charts
//   --push      push for real; without it nothing leaves this machine
//   --out       where the .tgz is written (default: a new temporary directory)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { ensureHelm } from './ensure-helm.mjs';

const chartDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../helm/classroom-monitor');
// Long enough for a slow registry, short enough that a hung one does not hold a release forever.
const pushTimeoutMs = 5 * 60_000;

function fail(message) {
  console.error(`release-chart: ${message}`);
  process.exit(2);
}

function option(name) {
  const at = process.argv.indexOf(name);
  if (at === -1) return undefined;
  const value = process.argv[at + 1];
  if (!value || value.startsWith('--')) fail(`${name} needs a value`);
  return value;
}

function run(helm, args, timeout) {
  const result = spawnSync(helm, args, { encoding: 'utf8', timeout });
  if (result.error) fail(`helm ${args[0]} did not finish: ${result.error.message}`);
  if (result.status !== 0) fail(`helm ${args[0]} failed:\n${result.stderr || result.stdout}`);
  return result.stdout;
}

const known = new Set(['--registry', '--push', '--out']);
for (const [i, arg] of process.argv.slice(2).entries()) {
  const previous = process.argv[i + 1];
  if (arg.startsWith('--') && !known.has(arg))
    fail(`unknown option ${arg}; see the usage at the top of this file`);
  if (!arg.startsWith('--') && !['--registry', '--out'].includes(previous))
    fail(`unexpected argument ${arg}`);
}

const registry = option('--registry') ?? process.env.CHART_REGISTRY;
const push = process.argv.includes('--push');
if (!registry) {
  fail(
    'say where to push: --registry oci://<host>/<path> or CHART_REGISTRY, e.g. oci://registry.campus.edu/charts',
  );
}
// helm push takes the repository without the chart's name: it appends it, and the version as the tag.
if (!/^oci:\/\/[a-z0-9.-]+(:\d+)?(\/[a-z0-9._-]+)*$/i.test(registry)) {
  fail(
    `"${registry}" is not an OCI repository such as oci://registry.campus.edu/charts (no chart name, no tag)`,
  );
}

const chart = parse(readFileSync(path.join(chartDir, 'Chart.yaml'), 'utf8'));
if (push) {
  // Placeholders must not reach a registry, where Artifact Hub and users would follow them.
  const links = [
    chart.home,
    chart.icon,
    ...(chart.sources ?? []),
    ...(chart.maintainers ?? []).flatMap((m) => [m.email, m.url]),
  ];
  const placeholders = links.filter((link) =>
    /[@/.]example(\.(com|org|net))?(?=[/:>]|$)/i.test(String(link ?? '')),
  );
  if (placeholders.length) {
    fail(
      `Chart.yaml still names example addresses (${placeholders.join(', ')}): set the project's own before pushing`,
    );
  }
}

const helm = ensureHelm();
run(helm, ['lint', '--strict', chartDir]);
const out = path.resolve(option('--out') ?? mkdtempSync(path.join(tmpdir(), 'cm-chart-')));
run(helm, ['package', chartDir, '--destination', out]);
const archive = path.join(out, `${chart.name}-${chart.version}.tgz`);
const pushArgs = ['push', archive, registry];

if (!push) {
  console.log(`Packaged ${archive}`);
  console.log(`Dry run: would run: helm ${pushArgs.join(' ')}`);
  console.log(
    `Pushes ${registry.replace(/^oci:\/\//, '')}/${chart.name}:${chart.version}. Add --push to push it.`,
  );
} else {
  process.stdout.write(run(helm, pushArgs, pushTimeoutMs));
  console.log(`Pushed ${registry}/${chart.name}:${chart.version}`);
}
