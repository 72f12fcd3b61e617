import { readFileSync } from 'node:fs';
import path from 'node:path';
import { componentOf, helm, type Manifest, refusal, releaseNamespace, render } from './support/helm';
import { ofKind } from './support/kubernetes';
import { chartDir } from './support/paths';

/** What one monitor replica needs (files/monitor-memory.json, measured in docs/benchmarks.md). */
const sizing = JSON.parse(readFileSync(path.join(chartDir, 'files/monitor-memory.json'), 'utf8')) as {
  baseMiB: number;
  perAddressKiB: number;
};
const requiredMiB = (addresses: number) =>
  Math.ceil(sizing.baseMiB + (addresses * sizing.perAddressKiB) / 1024);

/** maxMonitored and the monitor's memory limit (its request the same). */
const sized = (addresses: number, limit: string) => [
  `inventory.addresses.maxMonitored=${addresses}`,
  `monitor.resources.requests.memory=${limit}`,
  `monitor.resources.limits.memory=${limit}`,
];

const monitorConfig = (manifests: Manifest[]) =>
  ofKind<Manifest & { data: Record<string, string> }>(manifests, 'ConfigMap').find(
    (m) => componentOf(m) === 'monitor',
  )!.data;

/** The install notes of a client dry run with these `--set` assignments. */
function notes(set: string[]): string {
  const args = ['install', 'cm', '.', '--dry-run=client', '--namespace', releaseNamespace];
  for (const assignment of ['allowGeneratedSecretsWithoutCluster=true', ...set])
    args.push('--set', assignment);
  const { status, stdout, stderr } = helm(args);
  if (status !== 0) throw new Error(stderr);
  return stdout.slice(stdout.indexOf('NOTES:'));
}

describe('memory of the monitor', () => {
  it('needs 128 MiB and 2 KiB per address, which the default limit holds at the default maxMonitored', () => {
    expect(sizing).toEqual({ baseMiB: 128, perAddressKiB: 2 });
    expect(requiredMiB(50_000)).toBe(226);
    expect(refusal([])).toBe('');
  });

  it.each([
    [100_000, '256Mi'],
    [50_000, '225Mi'],
    [200_000, '0.5Gi'],
  ])('refuses a limit below what a replica needs for %d addresses (%s), saying what to set', (max, limit) => {
    const need = requiredMiB(max);
    expect(refusal(sized(max, limit))).toContain(
      `monitor.resources.limits.memory (${limit}) is less than the ${need}Mi a monitor replica needs for ` +
        `inventory.addresses.maxMonitored (${max} addresses): every replica keeps the whole list, and one ` +
        'sweeps all of it when the others are gone, so each would be killed for want of memory in turn. ' +
        `Set the limit to ${need}Mi or more, or lower maxMonitored`,
    );
  });

  it.each([
    [100_000, `${requiredMiB(100_000)}Mi`],
    [1_000, '160Mi'],
    [200_000, '1Gi'],
  ])('accepts a limit that holds %d addresses (%s)', (max, limit) => {
    expect(refusal(sized(max, limit))).toBe('');
  });

  it('bounds the heap at half the limit, so that V8 collects before the kernel kills the pod', () => {
    expect(monitorConfig(render()).NODE_OPTIONS).toBe('--max-old-space-size=128');
    expect(monitorConfig(render([], ['monitor.resources.limits.memory=1Gi'])).NODE_OPTIONS).toBe(
      '--max-old-space-size=512',
    );
    // Only the monitor: the others keep Node's own sizing.
    for (const m of ofKind<Manifest & { data: Record<string, string> }>(render(), 'ConfigMap'))
      if (componentOf(m) !== 'monitor') expect(m.data?.NODE_OPTIONS).toBeUndefined();
  });

  it('warns after the install when the memory request is below what a replica needs', () => {
    expect(notes(['monitor.resources.requests.memory=128Mi'])).toContain(
      'WARNING: monitor.resources.requests.memory (128Mi) is below the 226Mi a monitor replica may use\n' +
        'with inventory.addresses.maxMonitored at 50000: on a node short of memory its pods are evicted first',
    );
    expect(notes([])).not.toContain('monitor.resources.requests.memory');
    expect(
      notes([
        'inventory.addresses.maxMonitored=10000',
        'monitor.resources.requests.memory=160Mi',
        'monitor.resources.limits.memory=160Mi',
      ]),
    ).not.toContain('monitor.resources.requests.memory');
  });
});
