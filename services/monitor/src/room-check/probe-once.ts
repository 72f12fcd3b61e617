import { PROBE_GRACE_MS } from '../probes/probe-runner';
import { type ProbeResult } from '../probes/probe';
import { type PlannedProbe } from '../probes/probe-plan';
import { type ProbeRegistry } from '../probes/probe-registry';

/**
 * One probe of one device, outside the schedule: within `timeoutMs` (plus the runner's grace for a
 * probe that overruns), a probe that throws reading as a protocol error, as the runner reads it.
 */
export async function runProbeOnce(
  registry: ProbeRegistry,
  plan: PlannedProbe,
  timeoutMs: number,
): Promise<ProbeResult> {
  if (plan.refused) return { outcome: 'unreachable', findings: [], detail: plan.refused };
  const client = registry.get(plan.target.probe.type);
  if (!client) return { outcome: 'protocol-error', findings: [], detail: 'This monitor has no such probe' };
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<ProbeResult>(
    (resolve) =>
      (timer = setTimeout(() => {
        controller.abort();
        resolve({ outcome: 'unreachable', findings: [], detail: `No answer within ${timeoutMs / 1000} s` });
      }, timeoutMs + PROBE_GRACE_MS)),
  );
  const probing = client
    .probe({
      address: plan.device,
      port: plan.port,
      settings: plan.target.probe,
      secrets: plan.target.secrets,
      timeoutMs,
      signal: controller.signal,
    })
    .catch((error: unknown): ProbeResult => ({
      outcome: 'protocol-error',
      findings: [],
      detail: `The probe failed: ${String(error)}`.slice(0, 300),
    }));
  return Promise.race([probing, late]).finally(() => clearTimeout(timer));
}
