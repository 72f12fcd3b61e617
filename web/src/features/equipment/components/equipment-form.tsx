import {
  type Equipment,
  equipmentCreateBodySchema,
  equipmentStatuses,
  equipmentUpdateSchema,
  presetProducts,
} from '@cm/contracts';
import { type FormEvent, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { Input, Textarea } from '../../../components/ui/input';
import { Select } from '../../../components/ui/select';
import { toast } from '../../../components/ui/use-toast';
import { fieldErrors } from '../../../lib/form-errors';
import { useSaveEquipment } from '../api/equipment';
import { statusIndicator } from '../lib/status';

type Values = {
  name: string;
  model: string;
  serialNumber: string;
  ipAddress: string;
  status: string;
  notes: string;
};
type Errors = Partial<Record<keyof Values, string>>;

const emptyValues: Values = {
  name: '',
  model: '',
  serialNumber: '',
  ipAddress: '',
  status: 'active',
  notes: '',
};

const valuesOf = (e: Equipment): Values => ({
  name: e.name,
  model: e.model ?? '',
  serialNumber: e.serialNumber ?? '',
  ipAddress: e.ipAddress ?? '',
  status: e.status,
  notes: e.notes ?? '',
});

const presetModels = presetProducts.map((p) => p.model);
const presetLabel = (model: string) => {
  const product = presetProducts.find((p) => p.model === model);
  return product ? `${product.name} (${product.model})` : model;
};

interface EquipmentFormProps {
  roomId: string;
  /** Existing equipment puts the form in edit mode. */
  equipment?: Equipment;
  onDone: () => void;
}

export function EquipmentForm({ roomId, equipment, onDone }: EquipmentFormProps) {
  const editing = Boolean(equipment);
  const [values, setValues] = useState<Values>(equipment ? valuesOf(equipment) : emptyValues);
  const [preset, setPreset] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const save = useSaveEquipment();
  const set = <K extends keyof Values>(key: K, value: Values[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors((e) => ({ ...e, [key]: undefined }));
  };

  // Spec section 2: choosing a product pre-fills its name and model; both stay editable.
  const choosePreset = (model: string) => {
    const product = presetProducts.find((p) => p.model === model);
    if (!product) return;
    setPreset(model);
    setValues((v) => ({ ...v, name: product.name, model: product.model }));
    setErrors((e) => ({ ...e, name: undefined, model: undefined }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const onSuccess = () => {
      toast({
        title: 'Success',
        description: editing ? 'Equipment updated successfully' : 'Equipment added successfully',
      });
      onDone();
    };
    const onError = () =>
      toast({
        title: 'Error',
        description: editing ? 'Failed to update equipment' : 'Failed to add equipment',
        variant: 'destructive',
      });
    if (equipment) {
      const parsed = equipmentUpdateSchema.safeParse({ roomId, ...values });
      if (!parsed.success) return setErrors(fieldErrors(parsed.error));
      setErrors({});
      save.mutate({ roomId, id: equipment.id, body: parsed.data }, { onSuccess, onError });
    } else {
      const parsed = equipmentCreateBodySchema.safeParse({ roomId, ...values, imageUrl: '' });
      if (!parsed.success) return setErrors(fieldErrors(parsed.error));
      setErrors({});
      save.mutate({ roomId, body: parsed.data }, { onSuccess, onError });
    }
  };

  const submitLabel = editing
    ? save.isPending
      ? 'Saving...'
      : 'Save Equipment'
    : save.isPending
      ? 'Adding...'
      : 'Add Equipment';
  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <Field label="Preset Product" hint="Fills in the name and model">
        <Select
          value={preset}
          onValueChange={choosePreset}
          options={presetModels}
          labelOf={presetLabel}
          placeholder="Choose from the catalogue"
        />
      </Field>
      <Field label="Name *" error={errors.name}>
        <Input
          name="name"
          placeholder="e.g. Ceiling Projector"
          value={values.name}
          onChange={(e) => set('name', e.target.value)}
        />
      </Field>
      <Field label="Model" error={errors.model}>
        <Input name="model" value={values.model} onChange={(e) => set('model', e.target.value)} />
      </Field>
      <Field label="Serial Number" error={errors.serialNumber}>
        <Input
          name="serialNumber"
          value={values.serialNumber}
          onChange={(e) => set('serialNumber', e.target.value)}
        />
      </Field>
      <Field
        label="IP Address"
        error={errors.ipAddress}
        hint="One address (10.0.0.5) or a range of the last part (10.0.0.5-73)"
      >
        <Input
          name="ipAddress"
          inputMode="decimal"
          autoComplete="off"
          placeholder="e.g. 10.0.0.5"
          value={values.ipAddress}
          onChange={(e) => set('ipAddress', e.target.value)}
        />
      </Field>
      <Field label="Status" error={errors.status}>
        <Select
          value={values.status}
          onValueChange={(v) => set('status', v)}
          options={equipmentStatuses}
          labelOf={(v) => statusIndicator(v).label}
          placeholder="Select status"
        />
      </Field>
      <Field label="Notes" error={errors.notes}>
        <Textarea
          name="notes"
          className="min-h-[100px]"
          value={values.notes}
          onChange={(e) => set('notes', e.target.value)}
        />
      </Field>
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
