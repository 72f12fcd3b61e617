// Without zod: the web app's first screens read it (issue 37's budget). The counts are typed here,
// not imported from ./problems, which re-exports this file.

/**
 * One word for a room or building: offline when every device that should answer is down,
 * partial when only some are (or some answer only in part), active otherwise. Devices in
 * maintenance are left out: nobody expects them to answer.
 */
export type RollupStatus = 'active' | 'partial' | 'inactive' | 'empty';
export function rollupStatus(counts: { active: number; inactive: number; partial: number }): RollupStatus {
  const watched = counts.active + counts.inactive + counts.partial;
  if (watched === 0) return 'empty';
  if (counts.inactive === watched) return 'inactive';
  if (counts.inactive + counts.partial > 0) return 'partial';
  return 'active';
}
