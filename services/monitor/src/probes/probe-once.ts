import { type ProbeResult } from './probe';
import { type PlannedProbe } from './probe-plan';
import { type ProbeRegistry } from './probe-registry';

/**
 * How long past its own timeout a probe may take before the runner reads the device as
 * unreachable: a probe should end itself in time; this bounds one that does not.
 */
export const PROBE_GRACE_MS = 1000;

/**
 * One probe of one device, outside the schedule: `result` within `timeoutMs` (plus the grace for
 * a probe that overruns), a probe that throws reading as a protocol error, as the runner reads
 * it; `ended` once the probe itself has ended, its connection closed (a probe past its grace
 * deadline is aborted, but the device is not free until it lets go).
 */
export function startProbe(
  registry: ProbeRegistry,
  plan: PlannedProbe,
  timeoutMs: number,
): { result: Promise<ProbeResult>; ended: Promise<void> } {
  if (plan.refused) {
    const result = Promise.resolve<ProbeResult>({
      outcome: 'unreachable',
      findings: [],
      detail: plan.refused,
    });
    return { result, ended: Promise.resolve() };
  }
  const client = registry.get(plan.target.probe.type);
  if (!client) {
    const result = Promise.resolve<ProbeResult>({
      outcome: 'protocol-error',
      findings: [],
      detail: 'This monitor has no such probe',
    });
    return { result, ended: Promise.resolve() };
  }
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<ProbeResult>(
    (resolve) =>
      (timer = setTimeout(() => {
        controller.abort();
        resolve({ outcome: 'unreachable', findings: [], detail: `No answer within ${timeoutMs / 1000} s` });
      }, timeoutMs + PROBE_GRACE_MS)),
  );
  const probing = Promise.resolve()
    .then(() =>
      client.probe({
        address: plan.device,
        port: plan.port,
        settings: plan.target.probe,
        secrets: plan.target.secrets,
        timeoutMs,
        signal: controller.signal,
      }),
    )
    .catch((error: unknown): ProbeResult => ({
      outcome: 'protocol-error',
      findings: [],
      detail: `The probe failed: ${String(error)}`.slice(0, 300),
    }));
  const result = Promise.race([probing, late]).finally(() => clearTimeout(timer));
  return { result, ended: probing.then(() => undefined) };
}
