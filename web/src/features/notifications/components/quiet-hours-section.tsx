import { type QuietHours, quietHoursSchema } from '@cm/contracts';
import { useQuery } from '@tanstack/react-query';
import { Moon } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Card, CardTitle } from '../../../components/ui/card';
import { Field } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { LoadError } from '../../../components/ui/load-error';
import { Select } from '../../../components/ui/select';
import { Skeleton } from '../../../components/ui/skeleton';
import { toast } from '../../../components/ui/use-toast';
import { errorMessage, fieldErrorsOf } from '../../../lib/api';
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

function QuietHoursForm({ buildingId, stored }: { buildingId: string; stored: QuietHours | null }) {
  const save = useSaveQuietHours();
  const [values, setValues] = useState<QuietHours>(stored ?? newHours());
  const [errors, setErrors] = useState<Record<string, string>>({});
  const set = <K extends keyof QuietHours>(key: K, value: QuietHours[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors(({ [key]: _gone, ...rest }) => rest);
  };
  const failed = (error: unknown) => {
    setErrors(Object.fromEntries(fieldErrorsOf(error).map((e) => [e.path, e.message])));
    toast({ title: 'Error saving quiet hours', description: errorMessage(error), variant: 'destructive' });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = quietHoursSchema.safeParse(values);
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    save.mutate(
      { buildingId, hours: parsed.data },
      { onSuccess: () => toast({ title: 'Quiet hours saved' }), onError: failed },
    );
  };
  const remove = () =>
    save.mutate(
      { buildingId, hours: null },
      {
        onSuccess: () => {
          setValues(newHours());
          toast({ title: 'Quiet hours removed', description: 'Alerts go out at any hour.' });
        },
        onError: failed,
      },
    );

  return (
    <form onSubmit={submit} noValidate className="space-y-3" aria-label="Teaching hours">
      <p role="status" className="text-sm text-slate-700">
        {stored
          ? `Teaching ${stored.days.map((d) => dayNames[d - 1]).join(', ')} ${stored.start}–${stored.end} (${stored.timeZone}); outside: ${stored.outside === 'digest' ? 'a digest when teaching starts' : 'alerts dropped'}.`
          : 'No teaching hours: alerts go out at any hour.'}
      </p>
      <fieldset className="space-y-1.5">
        <legend className="text-sm font-medium text-slate-800">Teaching days</legend>
        {errors.days ? <p className="text-sm text-red-600">{errors.days}</p> : null}
        <div className="flex flex-wrap gap-x-4">
          {dayNames.map((name, i) => (
            <label key={name} className="flex min-h-11 items-center gap-2 text-sm text-slate-800">
              <input
                type="checkbox"
                className="h-5 w-5"
                checked={values.days.includes(i + 1)}
                onChange={(e) =>
                  set(
                    'days',
                    e.target.checked ? [...values.days, i + 1] : values.days.filter((d) => d !== i + 1),
                  )
                }
              />
              {name}
            </label>
          ))}
        </div>
      </fieldset>
      <div className="grid grid-cols-2 gap-3">
        <Field label="Start" error={errors.start}>
          <Input type="time" value={values.start} onChange={(e) => set('start', e.target.value)} />
        </Field>
        <Field label="End" error={errors.end}>
          <Input type="time" value={values.end} onChange={(e) => set('end', e.target.value)} />
        </Field>
      </div>
      <Field label="Time zone" error={errors.timeZone} hint="Such as Europe/Berlin or America/New_York">
        <Input
          value={values.timeZone}
          autoCapitalize="none"
          autoCorrect="off"
          spellCheck={false}
          onChange={(e) => set('timeZone', e.target.value)}
        />
      </Field>
      <Field label="Alerts outside teaching hours" error={errors.outside}>
        <Select
          value={values.outside}
          onValueChange={(v) => set('outside', v as QuietHours['outside'])}
          options={['digest', 'drop']}
          labelOf={(v) => outsideLabels[v as QuietHours['outside']]}
          placeholder="Choose"
        />
      </Field>
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
