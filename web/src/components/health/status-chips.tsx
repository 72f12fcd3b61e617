import { rollupStatus, type StatusCounts } from '@cm/contracts';
import { Badge } from '../ui/badge';
import { statusChips } from '../../lib/health';
import { statusWord } from '../../lib/status-words';

/**
 * A room's or building's health at a glance: "Inactive" when every watched device is down,
 * "Partial" when only some are, then the counts behind it. Nothing when all is well.
 */
export function StatusChips({ counts }: { counts: StatusCounts }) {
  const rollup = rollupStatus(counts);
  const chips = statusChips(counts);
  if (chips.length === 0) return null;
  return (
    <span className="mt-2 flex flex-wrap gap-1.5" data-testid="status-chips" data-rollup={rollup}>
      {rollup === 'inactive' || rollup === 'partial' ? (
        <Badge variant={rollup === 'inactive' ? 'danger' : 'warning'} className="font-semibold uppercase">
          {statusWord(rollup)}
        </Badge>
      ) : null}
      {chips.map((chip) => (
        <Badge key={chip.label} variant={chip.tone}>
          {chip.label}
        </Badge>
      ))}
    </span>
  );
}
