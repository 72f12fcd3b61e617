import {
  deepProbeRangeMessage,
  type Equipment,
  equipmentCreateBodySchema,
  equipmentCreateSchema,
  equipmentStatuses,
  equipmentStatusSchema,
  equipmentUpdateSchema,
  type ProbeSecretName,
  presetProducts,
} from '@cm/contracts';
import { useState } from 'react';
import { FormProvider, useFormContext } from 'react-hook-form';
import { z } from 'zod';
import { SelectField } from '../../../components/form/select-field';
import { FormActions } from '../../../components/form/form-actions';
import { TextField } from '../../../components/form/text-field';
import { Field } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { Select } from '../../../components/ui/select';
import { saveOutcome } from '../../../components/ui/save-outcome';
import { editableField, type SchemaFormProps, useSchemaForm, useServerFieldErrors } from '../../../lib/form';
import { useBuildingEquipment, useSaveEquipment } from '../api/equipment';
import { clearDraft, draftKeyOf } from '../../../lib/offline/drafts';
import { RefusalNote } from '../../../components/form/refusal-note';
import { maxLengthsOf } from '../../../lib/text-limit';
import { emptyProbe, probeFormSchema, probeValuesOf } from '../lib/probe-form';
import { statusIndicator } from '../lib/status';
import { ProbeFields } from './probe-fields';

// The status as the form holds it: the one chosen, or whatever the server had (an older
// client's "online", say), which the contract's list refuses.
const formStatus = z.string().pipe(equipmentStatusSchema);
/** The list box's "none": a list box item cannot have an empty value. */
const NO_UPSTREAM = 'none';
const formUpstream = z
  .string()
  .optional()
  .transform((v) => (!v || v === NO_UPSTREAM ? null : v))
  .pipe(z.uuid({ message: 'Choose a device from the list' }).nullable());
/** As the server says it, before the form is sent: ranges are pinged, never probed deeper. */
const noDeepProbeOnRange = (
  v: { ipAddress?: string | null; probe?: { type: string } },
  ctx: z.RefinementCtx,
) => {
  if (v.probe && v.probe.type !== 'icmp' && v.ipAddress?.includes('-'))
    ctx.addIssue({ code: 'custom', path: ['ipAddress'], message: deepProbeRangeMessage });
};
const createFormSchema = equipmentCreateBodySchema
  .extend({ status: formStatus, upstreamEquipmentId: formUpstream, probe: probeFormSchema })
  .superRefine(noDeepProbeOnRange);
const updateFormSchema = equipmentUpdateSchema
  .extend({ status: formStatus, upstreamEquipmentId: formUpstream, probe: probeFormSchema })
  .superRefine(noDeepProbeOnRange);

type EquipmentFormValues = z.input<typeof createFormSchema>;

const max = maxLengthsOf(equipmentCreateSchema);

const emptyValues = {
  name: '',
  type: '',
  model: '',
  serialNumber: '',
  ipAddress: '',
  status: 'active',
  notes: '',
  upstreamEquipmentId: NO_UPSTREAM,
  probe: emptyProbe,
} satisfies EquipmentFormValues;

const valuesOf = (e: Equipment) =>
  ({
    name: e.name,
    type: e.type ?? '',
    model: e.model ?? '',
    serialNumber: e.serialNumber ?? '',
    ipAddress: e.ipAddress ?? '',
    status: e.status,
    notes: e.notes ?? '',
    upstreamEquipmentId: e.upstreamEquipmentId ?? NO_UPSTREAM,
    probe: probeValuesOf(e.probe),
  }) satisfies EquipmentFormValues;

const presetModels = presetProducts.map((p) => p.model);
/** Fields the server also judges by what only it knows: the allowed networks, the address caps. */
const serverCheckedFields = ['ipAddress', 'upstreamEquipmentId'] as const;
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

export function EquipmentForm({ roomId, equipment, onDone: close }: EquipmentFormProps) {
  const save = useSaveEquipment();
  const editing = Boolean(equipment);
  const draftKey = draftKeyOf('equipment', equipment?.id, roomId);
  const onDone = () => {
    clearDraft(draftKey);
    close();
  };
  const outcome = saveOutcome({
    done: editing ? 'Equipment updated successfully' : 'Equipment added successfully',
    failed: editing ? 'Failed to update equipment' : 'Failed to add equipment',
    onDone,
  });
  const fields = {
    editing,
    pending: save.isPending,
    serverError: save.error,
    onCancel: onDone,
    roomId,
    selfId: equipment?.id,
    draftKey,
    secretsSet: equipment?.probe?.secretsSet ?? [],
  };
  // The room is sent with the fields (spec section 7), as a value the form holds but does not show.
  if (equipment) {
    return (
      <EquipmentFields
        key={equipment.id}
        {...fields}
        schema={updateFormSchema}
        defaultValues={{ roomId, ...valuesOf(equipment) }}
        onValid={(body) =>
          save.mutate({ roomId, id: equipment.id, version: equipment.version, body }, outcome)
        }
      />
    );
  }
  return (
    <EquipmentFields
      key="new"
      {...fields}
      schema={createFormSchema}
      defaultValues={{ roomId, ...emptyValues, imageUrl: '' }}
      onValid={(body) => save.mutate({ roomId, body }, outcome)}
    />
  );
}

function EquipmentFields<Output>(
  props: SchemaFormProps<EquipmentFormValues, Output> & {
    serverError: unknown;
    roomId: string;
    selfId?: string;
    draftKey: string;
    secretsSet: readonly ProbeSecretName[];
  },
) {
  const { schema, defaultValues, onValid, editing, pending, serverError, onCancel, roomId, selfId } = props;
  const building = useBuildingEquipment(roomId);
  const upstreamChoices = (building.data ?? []).filter((e) => e.id !== selfId);
  const upstreamLabel = (id: string) => {
    if (id === NO_UPSTREAM) return 'None';
    const choice = upstreamChoices.find((e) => e.id === id);
    return choice ? `${choice.name} (${choice.roomName})` : 'A device no longer listed';
  };
  const form = useSchemaForm(schema, defaultValues, props.draftKey);
  useServerFieldErrors(form.setError, serverError, serverCheckedFields);
  const { dirtyFields } = form.formState;
  // An untouched probe is left out: the server keeps it as it is, and the monitor is not told of a
  // change that did not happen.
  const submit = (body: Output) => onValid(dirtyFields.probe ? body : withoutProbe(body));
  const submitLabel = editing
    ? pending
      ? 'Saving...'
      : 'Save Equipment'
    : pending
      ? 'Adding...'
      : 'Add Equipment';
  return (
    <FormProvider {...form}>
      <form onSubmit={form.handleSubmit(submit)} noValidate className="space-y-4">
        <RefusalNote draftKey={props.draftKey} />
        <PresetField />
        <TextField
          form={form}
          name="name"
          label="Name *"
          max={max.name}
          placeholder="e.g. Ceiling Projector"
        />
        <TextField form={form} name="type" label="Type" max={max.type} placeholder="e.g. Audio, Projector" />
        <TextField form={form} name="model" label="Model" max={max.model} />
        <TextField form={form} name="serialNumber" label="Serial Number" max={max.serialNumber} />
        <AddressField />
        <SelectField
          form={form}
          name="status"
          label="Status"
          options={equipmentStatuses}
          labelOf={(v) => statusIndicator(v).label}
          placeholder="Select status"
        />
        <SelectField
          form={form}
          name="upstreamEquipmentId"
          label="Upstream device"
          options={[NO_UPSTREAM, ...upstreamChoices.map((e) => e.id)]}
          labelOf={upstreamLabel}
          placeholder="None"
        />
        <ProbeFields secretsSet={props.secretsSet} automatic={!editing} />
        <TextField
          form={form}
          name="notes"
          label="Notes"
          max={max.notes}
          multiline
          className="min-h-[100px]"
        />
        <FormActions submitLabel={submitLabel} busy={pending} onCancel={onCancel} />
      </form>
    </FormProvider>
  );
}

function AddressField() {
  const form = useFormContext<EquipmentFormValues>();
  return (
    <Field
      label="IP Address"
      error={form.formState.errors.ipAddress?.message}
      hint="One address (10.0.0.5) or a range of the last part (10.0.0.70-73)"
    >
      {/* Not "decimal": iOS's decimal pad has no "-", so a range cannot be typed. The text
        keyboard's number layer has digits, "." and "-" together on iOS and Android ("url" adds
        "/" and ".com", which an address never needs); no capitals or corrections in an address. */}
      <Input
        inputMode="text"
        autoCapitalize="none"
        autoCorrect="off"
        spellCheck={false}
        autoComplete="off"
        placeholder="e.g. 10.0.0.5"
        {...editableField(form, 'ipAddress')}
      />
    </Field>
  );
}

/**
 * Spec section 2: choosing a product pre-fills its name and model, and here its category as the
 * type the reports read; all stay editable. New equipment's automatic probe follows the model.
 */
function PresetField() {
  const { setValue, clearErrors } = useFormContext<EquipmentFormValues>();
  const [preset, setPreset] = useState('');
  const choosePreset = (model: string) => {
    const product = presetProducts.find((p) => p.model === model);
    if (!product) return;
    setPreset(model);
    setValue('name', product.name);
    setValue('type', product.category);
    setValue('model', product.model);
    clearErrors(['name', 'type', 'model']);
  };
  return (
    <Field label="Preset Product" hint="Fills in the name, type and model">
      <Select
        value={preset}
        onValueChange={choosePreset}
        options={presetModels}
        labelOf={presetLabel}
        placeholder="Choose from the catalogue"
      />
    </Field>
  );
}

function withoutProbe<T>(body: T): T {
  const { probe: _probe, ...rest } = body as T & { probe?: unknown };
  return rest as T;
}
