import { type Problems } from '@cm/contracts';
import { useState } from 'react';
import { statusWord } from '../../lib/status-words';
import { Badge } from '../ui/badge';
import { Dialog, DialogContent } from '../ui/dialog';
import { FaultList } from './fault-list';
import { ByPlace } from './problem-places';

/** The banner's list of what needs attention, in a dialog: a chunk of its own (problems-banner.tsx). */
export function ProblemsDialog({
  problems,
  withFaults,
  onClose,
}: {
  problems: Problems;
  /** Faults are counted beside what is down (attentionCounts). */
  withFaults: boolean;
  onClose: () => void;
}) {
  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent
        title="Needs attention"
        description={
          withFaults
            ? 'Inactive or partial now, then faults, each longest first.'
            : 'Inactive or partial now, longest down first.'
        }
      >
        <ProblemLists problems={problems} onNavigate={onClose} />
      </DialogContent>
    </Dialog>
  );
}

function ProblemLists({ problems, onNavigate }: { problems: Problems; onNavigate: () => void }) {
  // When the list opened: the durations it shows are as of then.
  const [now] = useState(Date.now);
  return (
    <div className="space-y-6">
      {problems.buildings.length > 0 ? (
        <ProblemList problems={problems} now={now} onNavigate={onNavigate} />
      ) : null}
      {problems.faults && problems.faults.deviceCount > 0 ? (
        <FaultList faults={problems.faults} now={now} onNavigate={onNavigate} />
      ) : null}
    </div>
  );
}

function ProblemList({
  problems,
  now,
  onNavigate,
}: {
  problems: Problems;
  now: number;
  onNavigate: () => void;
}) {
  return (
    <div className="space-y-5" data-testid="problem-list">
      <ByPlace
        buildings={problems.buildings}
        now={now}
        testId="problem-device"
        onNavigate={onNavigate}
        badge={(device) => (
          <Badge variant={device.status === 'inactive' ? 'danger' : 'warning'}>
            {statusWord(device.status)}
          </Badge>
        )}
      />
    </div>
  );
}
