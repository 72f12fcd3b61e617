import type { PowerState, ProbeFinding } from '@cm/contracts';
import { z } from 'zod';
import type { ProbeResult } from '../probe';

/** QRC's `StatusGet` result (and the `EngineStatus` a core pushes on connect). */
export const qrcStatusSchema = z.object({
  Platform: z.string().optional(),
  State: z.string(),
  DesignName: z.string().optional(),
  DesignCode: z.string().optional(),
  IsRedundant: z.boolean().optional(),
  IsEmulator: z.boolean().optional(),
  Status: z.object({ Code: z.number(), String: z.string().optional() }).optional(),
});
export type QrcStatus = z.infer<typeof qrcStatusSchema>;

/**
 * Q-SYS status codes, as its Status components use them: 0 OK, 1 Compromised, 2 Fault,
 * 3 Not Present (not an error: the item is not required), 4 Missing, 5 Initializing. Codes the
 * table does not know are warnings, so a new one is seen rather than hidden or overstated.
 */
const statusStates: Record<number, ProbeFinding['state'] | null> = {
  0: null,
  1: 'warning',
  2: 'error',
  3: null,
  4: 'error',
  5: 'warning',
};
const statusLabels: Record<number, string> = {
  1: 'Compromised',
  2: 'Fault',
  4: 'Missing',
  5: 'Initializing',
};

/**
 * What a core's status means for health. Power: `Active` runs the design (on); `Standby` is the
 * backup core of a redundant pair waiting to take over (standby); `Idle` is a core that is powered
 * but runs no design, so it is `on` with a warning, since nothing in the room gets audio through it.
 */
export function readQrcStatus(
  status: QrcStatus,
): Pick<ProbeResult, 'power' | 'findings' | 'model' | 'deviceName'> {
  const findings: ProbeFinding[] = [];
  let power: PowerState | undefined;
  switch (status.State) {
    case 'Active':
      power = 'on';
      break;
    case 'Standby':
      power = 'standby';
      // The backup of a redundant pair stands by by design; a lone core in standby runs nothing.
      if (!status.IsRedundant) findings.push({ state: 'warning', reason: 'Q-SYS core in standby' });
      break;
    case 'Idle':
      power = 'on';
      findings.push({ state: 'warning', reason: 'Q-SYS core idle: no design running' });
      break;
    default:
      findings.push({
        state: 'warning',
        reason: `Q-SYS core in an unknown state: ${status.State}`.slice(0, 200),
      });
  }
  const code = status.Status?.Code ?? 0;
  const state = code in statusStates ? statusStates[code] : 'warning';
  if (state) {
    const words = status.Status?.String?.trim() || statusLabels[code] || `status code ${code}`;
    findings.push({ state, reason: `Q-SYS: ${words}`.slice(0, 200) });
  }
  return {
    power,
    findings,
    model: status.Platform?.trim().slice(0, 120) || undefined,
    deviceName: status.DesignName?.trim().slice(0, 200) || undefined,
  };
}
