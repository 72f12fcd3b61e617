import { type HealthState } from '@cm/contracts';
import { CircleCheck, CircleHelp, CircleX, type LucideIcon, TriangleAlert } from 'lucide-react';
import { Badge } from '../ui/badge';

const looks: Record<
  HealthState,
  { label: string; icon: LucideIcon; variant: 'success' | 'warning' | 'danger' | 'neutral' }
> = {
  ok: { label: 'OK', icon: CircleCheck, variant: 'success' },
  warning: { label: 'Warning', icon: TriangleAlert, variant: 'warning' },
  error: { label: 'Error', icon: CircleX, variant: 'danger' },
  unknown: { label: 'Unknown', icon: CircleHelp, variant: 'neutral' },
};

/** A device's health in a word, with an icon and a colour that only repeat it. */
export function HealthBadge({ state, className }: { state: HealthState; className?: string }) {
  const { label, icon: Icon, variant } = looks[state];
  return (
    <Badge variant={variant} className={className} data-testid="health-badge" data-state={state}>
      <Icon aria-hidden className="h-3.5 w-3.5" />
      {label}
    </Badge>
  );
}
