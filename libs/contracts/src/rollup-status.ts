// Without zod: the web app's first screens read it (issue 37's budget).

import { type StatusCounts } from './problems';

/**
 * One word for a room or building: offline when every device that should answer is down,
 * partial when only some are (or some answer only in part), active otherwise. Devices in
 * maintenance are left out: nobody expects them to answer.
 */
export type RollupStatus = 'active' | 'partial' | 'inactive' | 'empty';
export function rollupStatus(counts: StatusCounts): RollupStatus {
  const watched = counts.active + counts.inactive + counts.partial;
  if (watched === 0) return 'empty';
  if (counts.inactive === watched) return 'inactive';
  if (counts.inactive + counts.partial > 0) return 'partial';
  return 'active';
}
