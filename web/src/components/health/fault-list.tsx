import { type Faults } from '@cm/contracts';
import { useId } from 'react';
import { HealthBadge } from './health-badge';
import { ByPlace } from './problem-places';

/** The banner's faults: devices that answer but report a fault, by building and room, longest first. */
export function FaultList({
  faults,
  now,
  onNavigate,
}: {
  faults: Faults;
  now: number;
  onNavigate: () => void;
}) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="space-y-3" data-testid="fault-list">
      <h3 id={headingId} className="text-base font-semibold text-slate-900">
        Faults
      </h3>
      <ByPlace
        buildings={faults.buildings}
        nested
        now={now}
        testId="fault-device"
        onNavigate={onNavigate}
        badge={(device) => <HealthBadge state={device.state} className="shrink-0" />}
        details={(device) =>
          device.reasons.length > 0 ? (
            <ul aria-label={`Reasons for ${device.name}`} className="mt-1 space-y-0.5 text-slate-700">
              {device.reasons.map((reason) => (
                <li key={reason} className="break-words">
                  {reason}
                </li>
              ))}
            </ul>
          ) : null
        }
      />
    </section>
  );
}
