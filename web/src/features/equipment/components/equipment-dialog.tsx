import { type Equipment } from '@cm/contracts';
import { useEffect } from 'react';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent } from '../../../components/ui/dialog';
import { lazyComponent } from '../../../components/ui/lazy-component';
import { saveOutcome } from '../../../components/ui/save-outcome';
import { useBuildingEquipment, useDeleteEquipment } from '../api/equipment';
import { probeTypeLabels } from '../lib/probe-form';
import { EquipmentTimeline } from './equipment-timeline';
import { FactList } from './fact-list';
import { HealthPanel } from './health-panel';
import { StatusIndicator } from './status-indicator';

// The form's code (the form library, the schemas' checks) comes with this dialog, before Add or
// Edit is tapped, and not before the details that most taps open.
const EquipmentForm = lazyComponent(
  () => import('./equipment-form'),
  (m) => m.EquipmentForm,
);

/** What the room's equipment dialog shows: nothing, the form to add or edit, or one's details. */
export type Panel =
  | { kind: 'closed' }
  | { kind: 'add' }
  | { kind: 'details'; equipment: Equipment }
  | { kind: 'edit'; equipment: Equipment };

/** The equipment section's dialog: a chunk of its own (equipment-section.tsx). */
export function EquipmentDialog({
  roomId,
  panel,
  onPanel,
}: {
  roomId: string;
  panel: Panel;
  onPanel: (panel: Panel) => void;
}) {
  useEffect(() => EquipmentForm.preload(), []);
  const close = () => onPanel({ kind: 'closed' });
  return (
    <Dialog open={panel.kind !== 'closed'} onOpenChange={(open) => !open && close()}>
      {panel.kind === 'add' ? (
        <DialogContent title="Add Equipment">
          <EquipmentForm roomId={roomId} onDone={close} />
        </DialogContent>
      ) : panel.kind === 'edit' ? (
        <DialogContent title="Edit Equipment">
          <EquipmentForm roomId={roomId} equipment={panel.equipment} onDone={close} />
        </DialogContent>
      ) : panel.kind === 'details' ? (
        <DialogContent title="Equipment Details">
          <EquipmentDetails
            roomId={roomId}
            equipment={panel.equipment}
            onEdit={() => onPanel({ kind: 'edit', equipment: panel.equipment })}
            onDeleted={close}
          />
        </DialogContent>
      ) : null}
    </Dialog>
  );
}

interface EquipmentDetailsProps {
  roomId: string;
  equipment: Equipment;
  onEdit: () => void;
  onDeleted: () => void;
}

function EquipmentDetails({ roomId, equipment, onEdit, onDeleted }: EquipmentDetailsProps) {
  const remove = useDeleteEquipment();
  const confirmDelete = () => {
    if (!window.confirm('Are you sure you want to delete this equipment?')) return;
    remove.mutate(
      { equipment, roomId },
      saveOutcome({
        done: 'Equipment deleted successfully',
        failed: 'Failed to delete equipment',
        onDone: onDeleted,
      }),
    );
  };
  const upstreamId = equipment.upstreamEquipmentId;
  const building = useBuildingEquipment(roomId, upstreamId !== null);
  const upstream = building.data?.find((e) => e.id === upstreamId);
  const rows: [string, string | null][] = [
    ['Type', equipment.type],
    ['Model', equipment.model],
    ['Serial Number', equipment.serialNumber],
    ['IP Address', equipment.ipAddress],
    ['Upstream Device', upstream ? `${upstream.name} (${upstream.roomName})` : upstreamId ? '…' : null],
    ['Health Probe', probeTypeLabels[equipment.probe?.type ?? 'icmp']],
  ];
  return (
    <div className="space-y-4">
      <div className="flex items-start justify-between gap-3">
        <p className="min-w-0 text-base font-semibold break-words text-slate-900">{equipment.name}</p>
        <StatusIndicator status={equipment.status} className="shrink-0" />
      </div>
      <FactList rows={rows.map(([label, value]) => [label, value || '—'])} />
      {equipment.notes ? (
        <div className="space-y-1">
          <p className="text-sm text-slate-600">Notes</p>
          <p className="text-sm whitespace-pre-wrap text-slate-900">{equipment.notes}</p>
        </div>
      ) : null}
      <HealthPanel probe={equipment.probe} health={equipment.health} />
      <EquipmentTimeline equipmentId={equipment.id} />
      <div className="flex gap-2 pt-2">
        <Button variant="destructive" className="flex-1" disabled={remove.isPending} onClick={confirmDelete}>
          {remove.isPending ? 'Deleting...' : 'Delete'}
        </Button>
        <Button className="flex-1" onClick={onEdit}>
          Edit
        </Button>
      </div>
    </div>
  );
}
