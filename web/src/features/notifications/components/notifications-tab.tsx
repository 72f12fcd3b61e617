import {
  apiRoutes,
  type Channel,
  type ChannelCreateInput,
  channelCreateSchema,
  type ChannelTestResult,
  type Delivery,
  deliveryStates,
} from '@cm/contracts';
import { useQuery } from '@tanstack/react-query';
import { Bell, KeyRound, Send } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { CardHeading } from '../../../components/ui/card-heading';
import { Dialog, DialogContent } from '../../../components/ui/dialog';
import { EditDeleteButtons } from '../../../components/ui/edit-delete-buttons';
import { Field } from '../../../components/ui/field';
import { Input, Textarea } from '../../../components/ui/input';
import { LoadError } from '../../../components/ui/load-error';
import { Select } from '../../../components/ui/select';
import { ShownOnce } from '../../../components/ui/shown-once';
import { Skeleton } from '../../../components/ui/skeleton';
import { Switch } from '../../../components/ui/switch';
import { toast } from '../../../components/ui/use-toast';
import { apiQuery, errorMessage, fieldErrorsOf } from '../../../lib/api';
import {
  channelsQuery,
  deliveriesQuery,
  type DeliveryFilter,
  useDeleteChannel,
  useRotateSecret,
  useSaveChannel,
  useTestChannel,
} from '../api/notifications';
import { QuietHoursSection } from './quiet-hours-section';

const buildingsQuery = apiQuery(apiRoutes.listBuildings);

const typeLabels: Record<Channel['type'], string> = { webhook: 'Webhook', email: 'E-mail' };
const stateBadges: Record<Delivery['state'], 'neutral' | 'success' | 'warning' | 'danger'> = {
  pending: 'warning',
  sending: 'neutral',
  sent: 'success',
  failed: 'danger',
};

type FormState = { open: false } | { open: true; channel?: Channel } | { open: true; secret: string };

/** Settings → Notifications, for administrators: channels, their test button, quiet hours, the delivery log. */
export function NotificationsTab() {
  const channels = useQuery(channelsQuery);
  const remove = useDeleteChannel();
  const test = useTestChannel();
  const rotate = useRotateSecret();
  const [form, setForm] = useState<FormState>({ open: false });
  const [tested, setTested] = useState<Record<string, ChannelTestResult | string>>({});

  const confirmDelete = (channel: Channel) => {
    if (!window.confirm(`Delete the channel ${channel.name}? Its delivery log goes with it.`)) return;
    remove.mutate(channel.id, {
      onSuccess: () => toast({ title: 'Channel deleted', description: `${channel.name} was deleted.` }),
      onError: (error) =>
        toast({ title: 'Error deleting channel', description: errorMessage(error), variant: 'destructive' }),
    });
  };

  const confirmRotate = (channel: Channel) => {
    if (
      !window.confirm(
        `Make a new signing secret for ${channel.name}? Messages are signed with it from now on: its receiver must be given it.`,
      )
    )
      return;
    rotate.mutate(channel.id, {
      onSuccess: (rotated) => setForm({ open: true, secret: rotated.secret ?? '' }),
      onError: (error) =>
        toast({
          title: 'Error making a new secret',
          description: errorMessage(error),
          variant: 'destructive',
        }),
    });
  };

  const runTest = (channel: Channel) =>
    test.mutate(channel.id, {
      onSuccess: (result) => setTested((t) => ({ ...t, [channel.id]: result })),
      onError: (error) => setTested((t) => ({ ...t, [channel.id]: errorMessage(error) })),
    });

  return (
    <div className="space-y-4">
      <Card className="space-y-3 p-4">
        <CardHeading
          icon={Bell}
          title="Notification Channels"
          addLabel="Add channel"
          onAdd={() => setForm({ open: true })}
        />
        {channels.isPending ? (
          <Skeleton className="h-16 w-full" />
        ) : channels.isError ? (
          <LoadError what="notification channels" error={channels.error} onRetry={() => channels.refetch()} />
        ) : channels.data.length === 0 ? (
          <p className="text-sm text-slate-600">
            No channels yet. Add a webhook (Slack, Teams or your own receiver) or an e-mail list to be told
            when equipment goes offline.
          </p>
        ) : (
          <ul className="space-y-2">
            {channels.data.map((channel) => {
              const outcome = tested[channel.id];
              return (
                <li key={channel.id} className="rounded-lg border border-slate-200 p-3" data-testid="channel">
                  <div className="flex items-start gap-2">
                    <div className="min-w-0 flex-1 space-y-1">
                      <h3 className="font-semibold break-words text-slate-900">{channel.name}</h3>
                      <p className="text-sm break-all text-slate-600">
                        {channel.type === 'webhook'
                          ? (channel.url ?? channel.host)
                          : channel.recipients?.join(', ')}
                      </p>
                      <div className="flex flex-wrap gap-1.5">
                        <Badge variant="neutral">{typeLabels[channel.type]}</Badge>
                        <Badge variant={channel.enabled ? 'success' : 'neutral'}>
                          {channel.enabled ? 'Enabled' : 'Disabled'}
                        </Badge>
                        <Badge variant="neutral">
                          {channel.buildingIds
                            ? `${channel.buildingIds.length} building${channel.buildingIds.length === 1 ? '' : 's'}`
                            : 'Whole campus'}
                        </Badge>
                      </div>
                    </div>
                    <EditDeleteButtons
                      name={channel.name}
                      deleting={remove.isPending && remove.variables === channel.id}
                      onEdit={() => setForm({ open: true, channel })}
                      onDelete={() => confirmDelete(channel)}
                    />
                  </div>
                  <div className="mt-2 flex flex-wrap gap-2">
                    <Button
                      variant="secondary"
                      aria-label={`Send a test message to ${channel.name}`}
                      disabled={test.isPending && test.variables === channel.id}
                      onClick={() => runTest(channel)}
                    >
                      <Send aria-hidden className="h-4 w-4" />
                      {test.isPending && test.variables === channel.id ? 'Sending test...' : 'Send test'}
                    </Button>
                    {channel.type === 'webhook' ? (
                      <Button
                        variant="outline"
                        aria-label={`Make a new signing secret for ${channel.name}`}
                        disabled={rotate.isPending && rotate.variables === channel.id}
                        onClick={() => confirmRotate(channel)}
                      >
                        <KeyRound aria-hidden className="h-4 w-4" />
                        New secret
                      </Button>
                    ) : null}
                  </div>
                  {outcome ? (
                    <p
                      role="status"
                      data-testid="test-outcome"
                      className={`mt-2 text-sm ${
                        typeof outcome !== 'string' && outcome.delivery.state === 'sent'
                          ? 'text-green-700'
                          : typeof outcome !== 'string' && outcome.delivery.state === 'sending'
                            ? 'text-slate-700'
                            : 'text-red-700'
                      }`}
                    >
                      {typeof outcome === 'string' ? outcome : outcome.message}
                    </p>
                  ) : null}
                </li>
              );
            })}
          </ul>
        )}
      </Card>
      <QuietHoursSection />
      <DeliveryLog channels={channels.data ?? []} />
      <Dialog open={form.open} onOpenChange={(open) => !open && setForm({ open: false })}>
        <DialogContent
          title={
            form.open && 'secret' in form
              ? 'Webhook Signing Secret'
              : form.open && form.channel
                ? 'Edit Channel'
                : 'Add Channel'
          }
        >
          {form.open && 'secret' in form ? (
            <SecretOnce secret={form.secret} onDone={() => setForm({ open: false })} />
          ) : form.open ? (
            <ChannelForm
              channel={form.channel}
              onDone={(secret) => setForm(secret ? { open: true, secret } : { open: false })}
            />
          ) : null}
        </DialogContent>
      </Dialog>
    </div>
  );
}

/** A new webhook's secret, shown this once: the server keeps it only encrypted, for signing. */
function SecretOnce({ secret, onDone }: { secret: string; onDone: () => void }) {
  return (
    <ShownOnce value={secret} what="signing secret" testId="channel-secret" onDone={onDone}>
      Give this secret to the receiver so it can check that messages come from Classroom Monitor. Copy it now:
      it will not be shown again.
    </ShownOnce>
  );
}

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

function ChannelForm({ channel, onDone }: { channel?: Channel; onDone: (secret?: string) => void }) {
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
          labelOf={(v) => typeLabels[v as Channel['type']]}
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

const stateLabels: Record<string, string> = {
  '': 'All states',
  pending: 'Pending',
  sending: 'Sending',
  sent: 'Sent',
  failed: 'Failed',
};

/** Every delivery and its outcome, newest first, a page at a time. */
function DeliveryLog({ channels }: { channels: Channel[] }) {
  const [filter, setFilter] = useState<DeliveryFilter>({});
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors.at(-1);
  const log = useQuery({
    ...deliveriesQuery({ ...filter, ...(cursor ? { cursor } : {}) }),
    refetchInterval: (q) =>
      q.state.data?.items.some((d) => d.state === 'pending' || d.state === 'sending') ? 5000 : false,
  });
  const names = new Map(channels.map((c) => [c.id, c.name]));
  const applied = (next: DeliveryFilter) => {
    setFilter(next);
    setCursors([]);
  };

  return (
    <Card className="space-y-3 p-4">
      <h2 className="text-lg font-semibold text-slate-900">Delivery Log</h2>
      <div className="grid grid-cols-2 gap-2">
        <Select
          aria-label="Filter by channel"
          value={filter.channelId ?? 'all'}
          onValueChange={(v) => applied({ ...filter, channelId: v === 'all' ? undefined : v })}
          options={['all', ...channels.map((c) => c.id)]}
          labelOf={(v) => (v === 'all' ? 'All channels' : (names.get(v) ?? v))}
          placeholder="All channels"
        />
        <Select
          aria-label="Filter by state"
          value={filter.state ?? 'all'}
          onValueChange={(v) => applied({ ...filter, state: v === 'all' ? undefined : v })}
          options={['all', ...deliveryStates]}
          labelOf={(v) => stateLabels[v === 'all' ? '' : v]}
          placeholder="All states"
        />
      </div>
      {log.isPending ? (
        <Skeleton className="h-16 w-full" />
      ) : log.isError ? (
        <LoadError what="delivery log" error={log.error} onRetry={() => log.refetch()} />
      ) : log.data.items.length === 0 ? (
        <p className="text-sm text-slate-600">Nothing sent yet.</p>
      ) : (
        <ul className="divide-y divide-slate-200">
          {log.data.items.map((d) => (
            <li key={d.id} className="space-y-1 py-2" data-testid="delivery">
              <div className="flex flex-wrap items-center gap-1.5">
                <Badge variant={stateBadges[d.state]}>{stateLabels[d.state]}</Badge>
                <span className="text-sm font-medium break-words text-slate-900">{d.channelName}</span>
                <span className="text-xs text-slate-500">
                  {d.kind} · {new Date(d.createdAt).toLocaleString()}
                  {d.attempts > 1 ? ` · ${d.attempts} attempts` : ''}
                </span>
              </div>
              <p className="text-sm break-words text-slate-700">{d.text}</p>
              {d.lastError ? <p className="text-sm break-words text-red-700">{d.lastError}</p> : null}
            </li>
          ))}
        </ul>
      )}
      <div className="flex justify-between gap-2">
        <Button
          variant="outline"
          disabled={cursors.length === 0}
          onClick={() => setCursors((c) => c.slice(0, -1))}
        >
          Newer
        </Button>
        <Button
          variant="outline"
          disabled={!log.data?.nextCursor}
          onClick={() => log.data?.nextCursor && setCursors((c) => [...c, log.data.nextCursor!])}
        >
          Older
        </Button>
      </div>
    </Card>
  );
}
