import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { helm } from './support/helm';
import { chartDir, fromRoot, repoRoot, services } from './support/paths';

const chart = parse(readFileSync(path.join(chartDir, 'Chart.yaml'), 'utf8'));
const annotation = (name: string) => parse(chart.annotations[`artifacthub.io/${name}`]);

describe('chart metadata for a registry and Artifact Hub', () => {
  it('names its home, sources, icon and maintainers', () => {
    for (const url of [chart.home, chart.icon, ...chart.sources])
      expect(new URL(url).protocol).toBe('https:');
    expect(chart.maintainers.length).toBeGreaterThan(0);
    for (const m of chart.maintainers)
      expect(m).toMatchObject({ name: expect.any(String), email: expect.stringContaining('@') });
    // The icon the URL points at, in this repository.
    expect(existsSync(fromRoot(new URL(chart.icon).pathname.split('/branch/main/')[1]))).toBe(true);
  });

  it("lists each component's image at appVersion, and what the version changes, as Artifact Hub reads them", () => {
    expect(annotation('images')).toEqual(
      services.map((name) => ({ name, image: `classroom-monitor/${name}:${chart.appVersion}` })),
    );
    const changes = annotation('changes') as { kind: string; description: string }[];
    expect(changes.length).toBeGreaterThan(0);
    for (const change of changes) {
      expect(['added', 'changed', 'deprecated', 'removed', 'fixed', 'security']).toContain(change.kind);
      expect(change.description).toBeTruthy();
    }
    expect(annotation('category')).toBe('monitoring-logging');
    for (const link of annotation('links')) expect(new URL(link.url).protocol).toBe('https:');
    for (const flag of ['operator', 'prerelease', 'containsSecurityUpdates']) {
      expect(['true', 'false']).toContain(chart.annotations[`artifacthub.io/${flag}`]);
    }
  });

  it('has a chart-testing config that finds this chart, its lint rules and its ci/ values', () => {
    const ct = parse(readFileSync(fromRoot('deploy/helm/ct.yaml'), 'utf8'));
    expect(ct['chart-dirs'].map((dir: string) => path.resolve(repoRoot, dir))).toContain(
      path.dirname(chartDir),
    );
    expect(existsSync(path.resolve(repoRoot, ct['lint-conf']))).toBe(true);
    expect(ct).toMatchObject({
      'target-branch': 'main',
      'check-version-increment': true,
      'validate-maintainers': false,
    });
    const lint = parse(readFileSync(path.resolve(repoRoot, ct['lint-conf']), 'utf8'));
    expect(lint.extends).toBe('default');
  });
});

describe('chart README', () => {
  it('has the parameter tables values.yaml documents, up to date (npm run readme -w deploy)', () => {
    const work = mkdtempSync(path.join(tmpdir(), 'cm-readme-'));
    try {
      const readme = path.join(chartDir, 'README.md');
      const regenerated = path.join(work, 'README.md');
      writeFileSync(regenerated, readFileSync(readme, 'utf8'));
      // The generator also refuses a value without its `## @param`, or a `## @param` of no value.
      const { status, stderr } = spawnSync(
        'node',
        [
          require.resolve('@bitnami/readme-generator-for-helm/bin/index.js'),
          '--values',
          path.join(chartDir, 'values.yaml'),
          '--readme',
          regenerated,
        ],
        { encoding: 'utf8' },
      );
      expect({ status, stderr }).toEqual({ status: 0, stderr: '' });
      expect(readFileSync(regenerated, 'utf8')).toBe(readFileSync(readme, 'utf8'));
      expect(readFileSync(readme, 'utf8')).toContain('| `monitor.namespace` ');
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});

describe('deploy/scripts/release-chart.mjs', () => {
  let work: string;
  let calls: string;
  let env: NodeJS.ProcessEnv;
  beforeAll(() => {
    work = mkdtempSync(path.join(tmpdir(), 'cm-release-'));
    calls = path.join(work, 'helm-calls');
    // The real helm, behind a wrapper that records each call: a dry run must not push.
    const realHelm = spawnSync('node', [fromRoot('deploy/scripts/ensure-helm.mjs'), '--path'], {
      encoding: 'utf8',
    }).stdout;
    const wrapper = path.join(work, 'helm');
    writeFileSync(wrapper, `#!/bin/sh\necho "$*" >> '${calls}'\nexec '${realHelm}' "$@"\n`);
    chmodSync(wrapper, 0o755);
    env = { ...process.env, HELM_BIN: wrapper, CHART_REGISTRY: '' };
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));
  beforeEach(() => rmSync(calls, { force: true }));

  const release = (args: string[], extraEnv: NodeJS.ProcessEnv = {}) =>
    spawnSync('node', [fromRoot('deploy/scripts/release-chart.mjs'), ...args], {
      encoding: 'utf8',
      env: { ...env, ...extraEnv },
    });
  const helmCalls = () => (existsSync(calls) ? readFileSync(calls, 'utf8').trim().split('\n') : []);

  it('by default packages the chart and only says what it would push where', () => {
    const out = path.join(work, 'dry');
    const { status, stdout, stderr } = release([
      '--registry',
      'oci://registry.campus.edu/charts',
      '--out',
      out,
    ]);
    expect({ status, stderr }).toEqual({ status: 0, stderr: '' });
    const archive = path.join(out, `classroom-monitor-${chart.version}.tgz`);
    expect(stdout).toContain(`Dry run: would run: helm push ${archive} oci://registry.campus.edu/charts`);
    expect(stdout).toContain(`registry.campus.edu/charts/classroom-monitor:${chart.version}`);
    expect(helmCalls().map((call) => call.split(' ')[0])).toEqual(['lint', 'package']);
    // The package is the chart: its metadata, without the ci/ value files .helmignore leaves out.
    expect(helm(['show', 'chart', archive]).stdout).toContain(`version: ${chart.version}`);
    const files = spawnSync('tar', ['-tzf', archive], { encoding: 'utf8' }).stdout.split('\n');
    expect(files).toContain('classroom-monitor/values.schema.json');
    expect(files).toContain('classroom-monitor/README.md');
    expect(files.filter((f) => f.includes('/ci/'))).toEqual([]);
  });

  it('takes the registry from CHART_REGISTRY too', () => {
    const { status, stdout } = release(['--out', path.join(work, 'env')], {
      CHART_REGISTRY: 'oci://harbor.campus.edu:8443/av',
    });
    expect(status).toBe(0);
    expect(stdout).toContain('harbor.campus.edu:8443/av/classroom-monitor');
  });

  it('refuses, saying why, without a registry or with one that is not an OCI repository', () => {
    const none = release([]);
    expect([none.status, none.stderr]).toEqual([2, expect.stringContaining('--registry oci://')]);
    const https = release(['--registry', 'https://registry.campus.edu/charts']);
    expect([https.status, https.stderr]).toEqual([2, expect.stringContaining('is not an OCI repository')]);
    expect(helmCalls()).toEqual([]);
  });

  it('does not push a chart whose metadata still names example addresses', () => {
    // With the project's real addresses in Chart.yaml this would push: it checks the refusal only.
    expect([chart.home, ...chart.sources].some((url: string) => url.includes('.example'))).toBe(true);
    const { status, stderr } = release(['--registry', 'oci://registry.campus.edu/charts', '--push']);
    expect([status, stderr]).toEqual([2, expect.stringContaining('example addresses')]);
    expect(helmCalls()).toEqual([]);
  });
});
