import { type DeviceHealth } from '@cm/contracts';
import { TriangleAlert } from 'lucide-react';
import { faultChip } from '../../lib/health';
import { Badge } from '../ui/badge';

/** A room's equipment faults at a glance ("Filter warning", "2 faults"); nothing when none. */
export function FaultChip({ equipment }: { equipment: readonly { health?: DeviceHealth | null }[] }) {
  const chip = faultChip(equipment);
  if (!chip) return null;
  return (
    <p className="flex">
      <Badge variant={chip.tone} className="font-semibold" data-testid="fault-chip">
        <TriangleAlert aria-hidden className="h-3.5 w-3.5" />
        {chip.label}
      </Badge>
    </p>
  );
}
