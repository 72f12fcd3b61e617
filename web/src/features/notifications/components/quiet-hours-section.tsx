import { type QuietHours, quietHoursSchema, quietModes } from '@cm/contracts';
import { useQuery } from '@tanstack/react-query';
import { Moon } from 'lucide-react';
import { useState } from 'react';
import { CheckboxListField } from '../../../components/form/checkbox-list-field';
import { SelectField } from '../../../components/form/select-field';
import { SwitchField } from '../../../components/form/switch-field';
import { TextField } from '../../../components/form/text-field';
import { Button } from '../../../components/ui/button';
import { Card, CardTitle } from '../../../components/ui/card';
import { Field } from '../../../components/ui/field';
import { LoadError } from '../../../components/ui/load-error';
import { Select } from '../../../components/ui/select';
import { Skeleton } from '../../../components/ui/skeleton';
import { toast } from '../../../components/ui/use-toast';
import { errorMessage } from '../../../lib/api';
import { useSchemaForm, useServerFieldErrors } from '../../../lib/form';
import { buildingsQuery, quietHoursQuery, useSaveQuietHours } from '../api/notifications';

const dayNames = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const outsideLabels: Record<QuietHours['outside'], string> = {
  digest: 'Wait for a digest when teaching starts',
  drop: 'Drop them',
};
/** The phone's own zone, the likeliest for a new building's hours. */
const localZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
const newHours = (): QuietHours => ({
  days: [1, 2, 3, 4, 5],
  start: '07:00',
  end: '19:00',
  timeZone: localZone(),
  outside: 'digest',
  idleRoomsWait: false,
});

/**
 * Settings → Notifications: each building's weekly teaching hours, outside which its alerts wait
 * for a morning digest or are dropped (issue 21).
 */
export function QuietHoursSection() {
  const buildings = useQuery(buildingsQuery);
  const [chosen, setChosen] = useState('');
  const buildingId = chosen || buildings.data?.[0]?.id || '';
  const nameOf = (id: string) => buildings.data?.find((b) => b.id === id)?.name ?? id;
  return (
    <Card className="space-y-3 p-4">
      <CardTitle icon={Moon}>Quiet Hours</CardTitle>
      <p className="text-sm text-slate-600">
        Outside a building&apos;s teaching hours, its alerts wait for a digest or are dropped.
      </p>
      {buildings.isError ? (
        <LoadError what="buildings" error={buildings.error} onRetry={() => buildings.refetch()} />
      ) : buildings.data?.length === 0 ? (
        <p className="text-sm text-slate-600">No buildings yet.</p>
      ) : buildingId ? (
        <>
          <Field label="Building">
            <Select
              value={buildingId}
              onValueChange={setChosen}
              options={(buildings.data ?? []).map((b) => b.id)}
              labelOf={nameOf}
              placeholder="Choose a building"
            />
          </Field>
          <BuildingQuietHours key={buildingId} buildingId={buildingId} />
        </>
      ) : (
        <Skeleton className="h-16 w-full" />
      )}
    </Card>
  );
}

function BuildingQuietHours({ buildingId }: { buildingId: string }) {
  const stored = useQuery(quietHoursQuery(buildingId));
  if (stored.isPending) return <Skeleton className="h-40 w-full" />;
  if (stored.isError) {
    return <LoadError what="quiet hours" error={stored.error} onRetry={() => stored.refetch()} />;
  }
  return <QuietHoursForm buildingId={buildingId} stored={stored.data.quietHours} />;
}

/** The server's messages go under their fields too: its runtime's time zones are not the phone's. */
const serverCheckedFields = ['days', 'start', 'end', 'timeZone', 'outside', 'idleRoomsWait'] as const;
const dayChoices = dayNames.map((label, i) => ({ value: i + 1, label }));

function QuietHoursForm({ buildingId, stored }: { buildingId: string; stored: QuietHours | null }) {
  const save = useSaveQuietHours();
  const form = useSchemaForm(quietHoursSchema, stored ?? newHours());
  useServerFieldErrors(form.setError, save.error, serverCheckedFields);
  const failed = (error: unknown) =>
    toast({ title: 'Error saving quiet hours', description: errorMessage(error), variant: 'destructive' });

  const submit = (hours: QuietHours) =>
    save.mutate(
      { buildingId, hours },
      { onSuccess: () => toast({ title: 'Quiet hours saved' }), onError: failed },
    );
  const remove = () =>
    save.mutate(
      { buildingId, hours: null },
      {
        onSuccess: () => {
          form.reset(newHours());
          toast({ title: 'Quiet hours removed', description: 'Alerts go out at any hour.' });
        },
        onError: failed,
      },
    );

  return (
    <form onSubmit={form.handleSubmit(submit)} noValidate className="space-y-3" aria-label="Teaching hours">
      <p role="status" className="text-sm text-slate-700">
        {stored ? inWords(stored) : 'No teaching hours: alerts go out at any hour.'}
      </p>
      <CheckboxListField
        form={form}
        name="days"
        legend="Teaching days"
        options={dayChoices}
        className="flex flex-wrap gap-x-4"
      />
      <div className="grid grid-cols-2 gap-3">
        <TextField form={form} name="start" label="Start" max={undefined} type="time" />
        <TextField form={form} name="end" label="End" max={undefined} type="time" />
      </div>
      <TextField
        form={form}
        name="timeZone"
        label="Time zone"
        max={undefined}
        hint="Such as Europe/Berlin or America/New_York"
        autoCapitalize="none"
        autoCorrect="off"
        spellCheck={false}
      />
      <SelectField
        form={form}
        name="outside"
        label="Alerts outside teaching hours"
        options={quietModes}
        labelOf={(v) => outsideLabels[v as QuietHours['outside']]}
        placeholder="Choose"
      />
      <SwitchField
        control={form.control}
        name="idleRoomsWait"
        label="Rooms with no more classes today wait for the morning digest"
      />
      <div className="grid gap-2">
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving...' : 'Save quiet hours'}
        </Button>
        {stored ? (
          <Button type="button" variant="outline" disabled={save.isPending} onClick={remove}>
            Remove quiet hours
          </Button>
        ) : null}
      </div>
    </form>
  );
}

/** The stored hours in a line, such as "Teaching Mon, Tue 07:00–19:00 (UTC); outside: alerts dropped." */
const inWords = ({ days, start, end, timeZone, outside }: QuietHours) =>
  `Teaching ${days.map((d) => dayNames[d - 1]).join(', ')} ${start}–${end} (${timeZone}); outside: ${
    outside === 'digest' ? 'a digest when teaching starts' : 'alerts dropped'
  }.`;
