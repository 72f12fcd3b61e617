import { type Channel, type ChannelCreateInput, channelCreateSchema } from '@cm/contracts';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { Input, Textarea } from '../../../components/ui/input';
import { Select } from '../../../components/ui/select';
import { Switch } from '../../../components/ui/switch';
import { toast } from '../../../components/ui/use-toast';
import { errorMessage, fieldErrorsOf } from '../../../lib/api';
import { buildingsQuery, useSaveChannel } from '../api/notifications';
import { channelTypeLabels } from '../lib/labels';

interface ChannelValues {
  name: string;
  type: Channel['type'];
  url: string;
  recipients: string;
  enabled: boolean;
  buildingIds: string[];
}

const valuesOf = (channel?: Channel): ChannelValues => ({
  name: channel?.name ?? '',
  type: channel?.type ?? 'webhook',
  url: channel?.url ?? '',
  recipients: channel?.recipients?.join(', ') ?? '',
  enabled: channel?.enabled ?? true,
  buildingIds: channel?.buildingIds ?? [],
});

export function ChannelForm({ channel, onDone }: { channel?: Channel; onDone: (secret?: string) => void }) {
  const save = useSaveChannel();
  const buildings = useQuery(buildingsQuery);
  const [values, setValues] = useState(valuesOf(channel));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const enabledLabel = useId();
  const set = <K extends keyof ChannelValues>(key: K, value: ChannelValues[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors((e) => ({ ...e, [key]: '' }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body: ChannelCreateInput = {
      name: values.name,
      type: values.type,
      url: values.type === 'webhook' ? values.url : null,
      recipients:
        values.type === 'email'
          ? values.recipients
              .split(/[,;\s]+/)
              .map((r) => r.trim())
              .filter(Boolean)
          : null,
      enabled: values.enabled,
      buildingIds: values.buildingIds.length ? values.buildingIds : null,
    };
    const checked = channelCreateSchema.safeParse(body);
    if (!checked.success) {
      setErrors(
        Object.fromEntries(checked.error.issues.map((i) => [String(i.path[0] ?? 'name'), i.message])),
      );
      return;
    }
    save.mutate(
      { id: channel?.id, body },
      {
        onSuccess: (saved) => {
          toast({
            title: channel ? 'Channel updated' : 'Channel added',
            description: `${saved.name} was ${channel ? 'updated' : 'added'}.`,
          });
          onDone('secret' in saved && typeof saved.secret === 'string' ? saved.secret : undefined);
        },
        onError: (error) => {
          setErrors(Object.fromEntries(fieldErrorsOf(error).map((e) => [e.path.split('.')[0], e.message])));
          toast({
            title: channel ? 'Error updating channel' : 'Error adding channel',
            description: errorMessage(error),
            variant: 'destructive',
          });
        },
      },
    );
  };

  return (
    <form className="space-y-4" onSubmit={submit} noValidate>
      <Field label="Name" error={errors.name}>
        <Input
          value={values.name}
          onChange={(e) => set('name', e.target.value)}
          aria-invalid={!!errors.name}
        />
      </Field>
      <Field label="Type" error={errors.type}>
        <Select
          value={values.type}
          onValueChange={(v) => set('type', v as Channel['type'])}
          options={channel ? [channel.type] : ['webhook', 'email']}
          labelOf={(v) => channelTypeLabels[v as Channel['type']]}
          placeholder="Choose a type"
        />
      </Field>
      {values.type === 'webhook' ? (
        <Field label="Webhook URL" error={errors.url} hint="A JSON POST, signed (see the documentation)">
          <Input
            type="url"
            inputMode="url"
            value={values.url}
            placeholder="https://hooks.example.edu/av"
            onChange={(e) => set('url', e.target.value)}
            aria-invalid={!!errors.url}
          />
        </Field>
      ) : (
        <Field label="Recipients" error={errors.recipients} hint="Email addresses, separated by commas">
          <Textarea
            rows={2}
            value={values.recipients}
            onChange={(e) => set('recipients', e.target.value)}
            aria-invalid={!!errors.recipients}
          />
        </Field>
      )}
      <fieldset className="space-y-1.5">
        <legend className="text-sm font-medium text-slate-800">Buildings (none: the whole campus)</legend>
        {errors.buildingIds ? <p className="text-sm text-red-600">{errors.buildingIds}</p> : null}
        <div className="max-h-40 space-y-1 overflow-y-auto">
          {(buildings.data ?? []).map((b) => (
            <label key={b.id} className="flex min-h-11 items-center gap-2 text-sm text-slate-800">
              <input
                type="checkbox"
                className="h-5 w-5"
                checked={values.buildingIds.includes(b.id)}
                onChange={(e) =>
                  set(
                    'buildingIds',
                    e.target.checked
                      ? [...values.buildingIds, b.id]
                      : values.buildingIds.filter((id) => id !== b.id),
                  )
                }
              />
              {b.name}
            </label>
          ))}
        </div>
      </fieldset>
      <div className="flex items-center justify-between gap-2 text-sm font-medium text-slate-800">
        <span id={enabledLabel}>Enabled</span>
        <Switch
          checked={values.enabled}
          onCheckedChange={(on) => set('enabled', on)}
          aria-labelledby={enabledLabel}
        />
      </div>
      <div className="grid gap-2">
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving...' : channel ? 'Update channel' : 'Add channel'}
        </Button>
        <Button type="button" variant="outline" onClick={() => onDone()}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
