import { type Room, roomCreateSchema, roomTypes } from '@cm/contracts';
import { Controller } from 'react-hook-form';
import { z } from 'zod';
import { SwitchField } from '../../../components/form/switch-field';
import { SelectField } from '../../../components/form/select-field';
import { FormActions } from '../../../components/form/form-actions';
import { TextField } from '../../../components/form/text-field';
import { Dialog, DialogContent } from '../../../components/ui/dialog';
import { Field } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { saveOutcome } from '../../../components/ui/save-outcome';
import { editableField, useSchemaForm } from '../../../lib/form';
import { maxLengthsOf } from '../../../lib/text-limit';
import { useSaveRoom } from '../api/rooms';
import { clearDraft, draftKeyOf } from '../../../lib/offline/drafts';
import { RefusalNote } from '../../../components/form/refusal-note';
import { AttachmentField } from './attachment-field';

export const capacityOf = (typed: string): number => Number.parseInt(typed, 10) || 0;

/**
 * The create schema over what the form holds: the type as chosen (a room read from the server
 * may carry any text), and the capacity as typed, where (spec section 2) anything that is not a
 * number becomes 0.
 */
const roomFormSchema = roomCreateSchema.extend({
  type: z.string().pipe(roomCreateSchema.shape.type),
  capacity: z.preprocess((typed: string) => capacityOf(typed), roomCreateSchema.shape.capacity),
});
type RoomFormValues = z.input<typeof roomFormSchema>;
const max = maxLengthsOf(roomCreateSchema);

// Spec section 2: name, type and floor empty, capacity 0 (an empty box showing the placeholder
// 24 is sent as 0), ADA on.
const emptyValues: RoomFormValues = {
  name: '',
  type: '',
  floor: '',
  capacity: '',
  roomSize: '',
  isAdaAccessible: 1,
  imageUrl: '',
  wiringDiagramUrl: '',
  seatingLayoutUrl: '',
};

const valuesOf = (room: Room): RoomFormValues => ({
  name: room.name,
  type: room.type,
  floor: room.floor,
  capacity: String(room.capacity),
  roomSize: room.roomSize ?? '',
  isAdaAccessible: room.isAdaAccessible,
  imageUrl: room.imageUrl ?? '',
  wiringDiagramUrl: room.wiringDiagramUrl ?? '',
  seatingLayoutUrl: room.seatingLayoutUrl ?? '',
});

const attachments = [
  ['imageUrl', 'Room Photo'],
  ['wiringDiagramUrl', 'Wiring Diagram'],
  ['seatingLayoutUrl', 'Seating Layout'],
] as const;

interface RoomFormProps {
  buildingId: string;
  /** An existing room puts the form in edit mode. */
  room?: Room;
  onDone: () => void;
}

export function RoomForm({ buildingId, room, onDone: close }: RoomFormProps) {
  const editing = Boolean(room?.id);
  const draftKey = draftKeyOf('room', room?.id, buildingId);
  const form = useSchemaForm(roomFormSchema, room ? valuesOf(room) : emptyValues, draftKey);
  const onDone = () => {
    clearDraft(draftKey);
    close();
  };
  const { control } = form;
  const { errors } = form.formState;
  const save = useSaveRoom();

  const submit = form.handleSubmit((body) =>
    save.mutate(
      { buildingId, id: room?.id, version: room?.version, body },
      saveOutcome({
        done: editing ? 'Room updated successfully' : 'Room created successfully',
        failed: editing ? 'Failed to update room' : 'Failed to create room',
        onDone: () => {
          if (!editing) form.reset(emptyValues);
          onDone();
        },
      }),
    ),
  );

  const submitLabel = editing
    ? save.isPending
      ? 'Updating Room...'
      : 'Update Room'
    : save.isPending
      ? 'Creating Room...'
      : 'Create Room';
  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <RefusalNote draftKey={draftKey} />
      <TextField form={form} name="name" label="Room Name *" max={max.name} placeholder="e.g. 101" />
      <SelectField
        form={form}
        name="type"
        label="Room Type *"
        options={roomTypes}
        placeholder="Select room type"
        // The schema's message lists all 13 types, which the list box already shows.
        unchosenMessage="Choose a room type"
      />
      <div className="grid grid-cols-2 gap-3">
        <TextField form={form} name="floor" label="Floor *" max={max.floor} placeholder="e.g. 1, LL, B1" />
        <Field label="Capacity" error={errors.capacity?.message}>
          <Input
            type="number"
            inputMode="numeric"
            min={0}
            placeholder="24"
            {...editableField(form, 'capacity')}
          />
        </Field>
      </div>
      <TextField
        form={form}
        name="roomSize"
        label="Room Size"
        max={max.roomSize}
        placeholder="e.g. 30 x 40 ft"
      />
      <SwitchField control={control} name="isAdaAccessible" label="ADA Accessible" on={1} off={0} />
      {attachments.map(([name, label]) => (
        <Controller
          key={name}
          control={control}
          name={name}
          render={({ field }) => (
            <AttachmentField label={label} value={field.value ?? ''} onChange={field.onChange} />
          )}
        />
      ))}
      <FormActions submitLabel={submitLabel} busy={save.isPending} onCancel={onDone} />
    </form>
  );
}

interface RoomFormDialogProps extends Omit<RoomFormProps, 'onDone'> {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** The room form in a dialog over the rooms list; closing it discards what was typed. */
export function RoomFormDialog({ open, onOpenChange, buildingId, room }: RoomFormDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title={room ? 'Edit Room' : 'Add Room'}>
        <RoomForm buildingId={buildingId} room={room} onDone={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}
