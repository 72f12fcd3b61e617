import { type ScheduleSource, type ScheduleSourceInput, scheduleSourceInputSchema } from '@cm/contracts';
import { z } from 'zod';
import { FormActions } from '../../../components/form/form-actions';
import { TextField } from '../../../components/form/text-field';
import { Dialog, DialogContent } from '../../../components/ui/dialog';
import { toast } from '../../../components/ui/use-toast';
import { errorMessage, fieldErrorsOf } from '../../../lib/api';
import { useSchemaForm, useServerFieldErrors } from '../../../lib/form';
import { maxLengthsOf } from '../../../lib/text-limit';
import { useSaveScheduleSource } from '../api/schedules';
import { feedUrlWords } from './schedule-source-form';

const max = maxLengthsOf(scheduleSourceInputSchema.in);
/** The server's messages that name a field go under it; the others (a refused address) above Save. */
const serverFields = ['name', 'url'] as const;

/**
 * What the form holds, turned into the whole schedule the PUT takes (its room or building as it
 * is) and checked by the contract's schema. An empty URL makes a feed a schedule of uploaded files.
 */
const formSchemaFor = ({ roomId, buildingId }: ScheduleSource) =>
  z
    .object({ name: z.string(), url: z.string() })
    .transform(({ name, url }): z.input<typeof scheduleSourceInputSchema> => ({
      name,
      url: url.trim() || null,
      roomId,
      buildingId,
    }))
    .pipe(scheduleSourceInputSchema);

/** The schedule being edited in its dialog, or none (closed). */
export function ScheduleEditDialog({
  source,
  onClose,
}: {
  source: ScheduleSource | null;
  onClose: () => void;
}) {
  return (
    <Dialog open={source !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent title="Edit Class Schedule">
        {source ? <ScheduleEditForm key={source.id} source={source} onDone={onClose} /> : null}
      </DialogContent>
    </Dialog>
  );
}

/** A schedule's name and feed URL; where its classes go stays (a new place is a new schedule). */
function ScheduleEditForm({ source, onDone }: { source: ScheduleSource; onDone: () => void }) {
  const save = useSaveScheduleSource();
  const form = useSchemaForm(formSchemaFor(source), { name: source.name, url: source.url ?? '' });
  useServerFieldErrors(form.setError, save.error, serverFields);
  const onField = fieldErrorsOf(save.error).some(({ path }) => serverFields.some((f) => f === path));

  const submit = (body: ScheduleSourceInput) =>
    save.mutate(
      { id: source.id, body },
      {
        onSuccess: () => {
          toast({ title: 'Success', description: 'Class schedule saved' });
          onDone();
        },
      },
    );

  return (
    <form className="space-y-4" onSubmit={form.handleSubmit(submit)} noValidate>
      <TextField form={form} name="name" label="Name" max={max.name} />
      <p className="text-sm text-slate-700">
        {source.roomId
          ? `Room: ${source.placeName}`
          : `Building: ${source.placeName} (classes go to rooms by their location)`}
      </p>
      <TextField
        form={form}
        name="url"
        label={feedUrlWords.label}
        max={undefined}
        hint={feedUrlWords.hint}
        inputMode="url"
        autoCapitalize="none"
        autoCorrect="off"
        spellCheck={false}
        placeholder={feedUrlWords.placeholder}
      />
      {save.isError && !onField ? (
        <p role="alert" className="text-sm break-words text-red-600">
          {errorMessage(save.error)}
        </p>
      ) : null}
      <FormActions
        submitLabel={save.isPending ? 'Saving...' : 'Save schedule'}
        busy={save.isPending}
        onCancel={onDone}
      />
    </form>
  );
}
