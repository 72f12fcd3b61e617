import { type DeviceHealth } from '@cm/contracts';
import { TriangleAlert } from 'lucide-react';
import { cn } from '../../lib/cn';
import { faultChip, faultCountChip } from '../../lib/health';
import { Badge } from '../ui/badge';

/**
 * Faults at a glance ("Filter warning", "2 faults"); nothing when none. From the equipment's own
 * health where the screen has it (a room's detail), else from the server's count (a list's card).
 */
export type FaultChipProps = { className?: string } & (
  { equipment: readonly { health?: DeviceHealth | null }[] } | { count: number | undefined }
);

export function FaultChip(props: FaultChipProps) {
  const chip = 'equipment' in props ? faultChip(props.equipment) : faultCountChip(props.count);
  if (!chip) return null;
  return (
    <span className={cn('flex', props.className)}>
      <Badge variant={chip.tone} className="font-semibold" data-testid="fault-chip">
        <TriangleAlert aria-hidden className="h-3.5 w-3.5" />
        {chip.label}
      </Badge>
    </span>
  );
}
