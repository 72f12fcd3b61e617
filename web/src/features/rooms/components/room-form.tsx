import { type Room, roomCreateSchema, roomTypes } from '@cm/contracts';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent } from '../../../components/ui/dialog';
import { Field } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { Select } from '../../../components/ui/select';
import { Switch } from '../../../components/ui/switch';
import { toast } from '../../../components/ui/use-toast';
import { fieldErrors } from '../../../lib/form-errors';
import { useSaveRoom } from '../api/rooms';
import { AttachmentField } from './attachment-field';

type Values = {
  name: string;
  type: string;
  floor: string;
  /** As typed; spec section 2: anything that is not a number becomes 0. */
  capacity: string;
  roomSize: string;
  isAdaAccessible: 0 | 1;
  imageUrl: string;
  wiringDiagramUrl: string;
  seatingLayoutUrl: string;
};
type Errors = Partial<Record<keyof Values, string>>;

// Spec section 2: name, type and floor empty, capacity 0 (an empty box showing the placeholder
// 24 is sent as 0), ADA on.
const emptyValues: Values = {
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

const valuesOf = (room: Room): Values => ({
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

export const capacityOf = (typed: string): number => Number.parseInt(typed, 10) || 0;

interface RoomFormProps {
  buildingId: string;
  /** An existing room puts the form in edit mode. */
  room?: Room;
  onDone: () => void;
}

export function RoomForm({ buildingId, room, onDone }: RoomFormProps) {
  const editing = Boolean(room?.id);
  const adaId = useId();
  const [values, setValues] = useState<Values>(room ? valuesOf(room) : emptyValues);
  const [errors, setErrors] = useState<Errors>({});
  const save = useSaveRoom();
  // Editing a field clears its message: it was about the old value.
  const set = <K extends keyof Values>(key: K, value: Values[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors((e) => ({ ...e, [key]: undefined }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = roomCreateSchema.safeParse({ ...values, capacity: capacityOf(values.capacity) });
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error));
      return;
    }
    setErrors({});
    save.mutate(
      { buildingId, id: room?.id, body: parsed.data },
      {
        onSuccess: () => {
          toast({
            title: 'Success',
            description: editing ? 'Room updated successfully' : 'Room created successfully',
          });
          if (!editing) setValues(emptyValues);
          onDone();
        },
        onError: () =>
          toast({
            title: 'Error',
            description: editing ? 'Failed to update room' : 'Failed to create room',
            variant: 'destructive',
          }),
      },
    );
  };

  const submitLabel = editing
    ? save.isPending
      ? 'Updating Room...'
      : 'Update Room'
    : save.isPending
      ? 'Creating Room...'
      : 'Create Room';
  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <Field label="Room Name *" error={errors.name}>
        <Input
          name="name"
          placeholder="e.g. 101"
          value={values.name}
          onChange={(e) => set('name', e.target.value)}
        />
      </Field>
      <Field
        label="Room Type *"
        // The schema's message lists all 13 types, which the list box already shows.
        error={errors.type && (values.type ? errors.type : 'Choose a room type')}
      >
        <Select
          value={values.type}
          onValueChange={(v) => set('type', v)}
          options={roomTypes}
          placeholder="Select room type"
        />
      </Field>
      <div className="grid grid-cols-2 gap-3">
        <Field label="Floor *" error={errors.floor}>
          <Input
            name="floor"
            placeholder="e.g. 1, LL, B1"
            value={values.floor}
            onChange={(e) => set('floor', e.target.value)}
          />
        </Field>
        <Field label="Capacity" error={errors.capacity}>
          <Input
            name="capacity"
            type="number"
            inputMode="numeric"
            min={0}
            placeholder="24"
            value={values.capacity}
            onChange={(e) => set('capacity', e.target.value)}
          />
        </Field>
      </div>
      <Field label="Room Size" error={errors.roomSize}>
        <Input
          name="roomSize"
          placeholder="e.g. 30 x 40 ft"
          value={values.roomSize}
          onChange={(e) => set('roomSize', e.target.value)}
        />
      </Field>
      <div className="flex items-center justify-between gap-3 rounded-lg border border-slate-200 py-1 pr-1 pl-3">
        <label htmlFor={adaId} className="text-sm font-medium text-slate-800">
          ADA Accessible
        </label>
        <Switch
          id={adaId}
          checked={values.isAdaAccessible === 1}
          onCheckedChange={(checked) => set('isAdaAccessible', checked ? 1 : 0)}
        />
      </div>
      <AttachmentField label="Room Photo" value={values.imageUrl} onChange={(v) => set('imageUrl', v)} />
      <AttachmentField
        label="Wiring Diagram"
        value={values.wiringDiagramUrl}
        onChange={(v) => set('wiringDiagramUrl', v)}
      />
      <AttachmentField
        label="Seating Layout"
        value={values.seatingLayoutUrl}
        onChange={(v) => set('seatingLayoutUrl', v)}
      />
      <div className="flex gap-2 pt-2">
        <Button variant="outline" className="flex-1" onClick={onDone} disabled={save.isPending}>
          Cancel
        </Button>
        <Button type="submit" className="flex-1" disabled={save.isPending}>
          {submitLabel}
        </Button>
      </div>
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
