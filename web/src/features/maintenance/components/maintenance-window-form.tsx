import { MAINTENANCE_REASON_MAX, maintenanceWindowCreateSchema } from '@cm/contracts';
import { useMemo, useState } from 'react';
import { z } from 'zod';
import { FormActions } from '../../../components/form/form-actions';
import { SelectField } from '../../../components/form/select-field';
import { TextField } from '../../../components/form/text-field';
import { Dialog, DialogContent } from '../../../components/ui/dialog';
import { Field } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { saveOutcome } from '../../../components/ui/save-outcome';
import { editableField, useSchemaForm } from '../../../lib/form';
import { useCreateMaintenanceWindow } from '../api/maintenance-windows';
import { isoOfLocalInput, localInputValue } from '../lib/windows';

const HOUR = 3_600_000;

export interface MaintenanceTargets {
  roomId: string;
  buildingId: string;
  /** The room's equipment, each a target of its own. */
  equipment: readonly { id: string; name: string }[];
}

/** The "For" choice: the room, its building, or one of its equipment by id. */
const ROOM = 'room';
const BUILDING = 'building';

/**
 * What the form holds (the target as a choice, times as the phone's local date and time), turned
 * into the create body and checked by the contract's own schema.
 */
const formSchema = (targets: MaintenanceTargets) =>
  z
    .object({
      target: z.string().min(1, { message: 'Choose what is in maintenance' }),
      startsAt: z.string().min(1, { message: 'Choose when it starts' }),
      endsAt: z.string().min(1, { message: 'Choose when it ends' }),
      reason: z.string(),
    })
    .transform(({ target, startsAt, endsAt, reason }): z.input<typeof maintenanceWindowCreateSchema> => ({
      ...(target === ROOM
        ? { roomId: targets.roomId }
        : target === BUILDING
          ? { buildingId: targets.buildingId }
          : { equipmentId: target }),
      // The checks above leave only a time the browser's picker gave, which always reads.
      startsAt: isoOfLocalInput(startsAt) ?? startsAt,
      endsAt: isoOfLocalInput(endsAt) ?? endsAt,
      reason,
    }))
    .pipe(maintenanceWindowCreateSchema);

interface MaintenanceWindowFormProps {
  targets: MaintenanceTargets;
  onDone: () => void;
}

export function MaintenanceWindowForm({ targets, onDone }: MaintenanceWindowFormProps) {
  const create = useCreateMaintenanceWindow();
  const schema = useMemo(() => formSchema(targets), [targets]);
  // From now, for two hours: the usual visit of a technician.
  const [defaults] = useState(() => {
    const now = Date.now();
    return {
      target: ROOM,
      startsAt: localInputValue(now),
      endsAt: localInputValue(now + 2 * HOUR),
      reason: '',
    };
  });
  const form = useSchemaForm(schema, defaults);
  const { errors } = form.formState;
  const names = new Map(targets.equipment.map((e) => [e.id, e.name]));
  const labelOf = (value: string) =>
    value === ROOM ? 'This room' : value === BUILDING ? 'The whole building' : (names.get(value) ?? value);

  return (
    <form
      onSubmit={form.handleSubmit((body) =>
        create.mutate(
          body,
          saveOutcome({
            done: 'Maintenance window added',
            failed: 'Failed to add maintenance window',
            onDone,
          }),
        ),
      )}
      noValidate
      className="space-y-4"
    >
      <SelectField
        form={form}
        name="target"
        label="For"
        options={[ROOM, BUILDING, ...targets.equipment.map((e) => e.id)]}
        labelOf={labelOf}
        placeholder="Choose what is in maintenance"
      />
      <Field label="Starts *" error={errors.startsAt?.message}>
        <Input type="datetime-local" {...editableField(form, 'startsAt')} />
      </Field>
      <Field label="Ends *" error={errors.endsAt?.message}>
        <Input type="datetime-local" {...editableField(form, 'endsAt')} />
      </Field>
      <TextField
        form={form}
        name="reason"
        label="Reason *"
        max={MAINTENANCE_REASON_MAX}
        multiline
        placeholder="e.g. Projector lamp replacement"
        className="min-h-[80px]"
      />
      <FormActions
        submitLabel={create.isPending ? 'Adding...' : 'Add Window'}
        busy={create.isPending}
        onCancel={onDone}
      />
    </form>
  );
}

/** The form in its dialog, as the room's maintenance section opens it (a chunk of its own). */
export function MaintenanceWindowDialog({
  open,
  onOpenChange,
  targets,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  targets: MaintenanceTargets;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {open ? (
        <DialogContent title="Add Maintenance Window">
          <MaintenanceWindowForm targets={targets} onDone={() => onOpenChange(false)} />
        </DialogContent>
      ) : null}
    </Dialog>
  );
}
