import { type ReadinessSummarySettings } from '@cm/contracts';
import { useQuery } from '@tanstack/react-query';
import { Sunrise } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Card, CardTitle } from '../../../components/ui/card';
import { Field } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { LoadError } from '../../../components/ui/load-error';
import { Skeleton } from '../../../components/ui/skeleton';
import { toast } from '../../../components/ui/use-toast';
import { errorMessage } from '../../../lib/api';
import { summaryChannelsQuery, summaryQuery, useSaveSummary } from '../api/summary';

/**
 * Administrators: the morning summary ("2 rooms at risk before 09:00 classes") — when it goes out
 * each day, in which time zone, and to which notification channels.
 */
export function MorningSummarySection() {
  const settings = useQuery(summaryQuery);
  const channels = useQuery(summaryChannelsQuery);
  const failed = settings.error ?? channels.error;
  return (
    <Card className="space-y-3 p-4">
      <CardTitle icon={Sunrise}>Morning summary</CardTitle>
      <p className="text-sm text-slate-600">
        Once each morning, the rooms with classes that day and which are at risk, to the channels chosen.
      </p>
      {failed ? (
        <LoadError what="the morning summary" error={failed} onRetry={() => void settings.refetch()} />
      ) : settings.data && channels.data ? (
        <SummaryForm stored={settings.data} channels={channels.data} />
      ) : (
        <Skeleton className="h-40 w-full" />
      )}
    </Card>
  );
}

function SummaryForm({
  stored,
  channels,
}: {
  stored: ReadinessSummarySettings;
  channels: { id: string; name: string }[];
}) {
  const save = useSaveSummary();
  const [time, setTime] = useState(stored.time ?? '');
  const [timeZone, setTimeZone] = useState(stored.timeZone);
  const [chosen, setChosen] = useState(() => new Set(stored.channelIds));
  const toggle = (id: string) =>
    setChosen((prev) => {
      const next = new Set(prev);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(
      { time: time || null, timeZone: timeZone.trim(), channelIds: [...chosen] },
      {
        onSuccess: (saved) =>
          toast({
            title: 'Morning summary saved',
            description: saved.time
              ? `Each day at ${saved.time} (${saved.timeZone}).`
              : 'No summary is sent.',
          }),
        onError: (error) =>
          toast({
            title: 'Error saving the summary',
            description: errorMessage(error),
            variant: 'destructive',
          }),
      },
    );
  };
  return (
    <form onSubmit={submit} noValidate className="space-y-3" aria-label="Morning summary">
      <Field label="Time" hint="Empty: no summary">
        <Input type="time" value={time} onChange={(e) => setTime(e.target.value)} />
      </Field>
      <Field label="Time zone" hint="Such as Europe/Berlin or America/New_York">
        <Input
          value={timeZone}
          onChange={(e) => setTimeZone(e.target.value)}
          autoCapitalize="none"
          autoCorrect="off"
          spellCheck={false}
        />
      </Field>
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-slate-800">Channels</legend>
        {channels.length === 0 ? (
          <p className="text-sm text-slate-600">No channels yet: add one in Settings → Notifications.</p>
        ) : (
          channels.map((c) => (
            <label key={c.id} className="flex min-h-11 items-center gap-3 text-sm text-slate-800">
              <input
                type="checkbox"
                className="h-5 w-5"
                checked={chosen.has(c.id)}
                onChange={() => toggle(c.id)}
              />
              {c.name}
            </label>
          ))
        )}
      </fieldset>
      <Button type="submit" disabled={save.isPending} className="w-full">
        {save.isPending ? 'Saving...' : 'Save morning summary'}
      </Button>
    </form>
  );
}
