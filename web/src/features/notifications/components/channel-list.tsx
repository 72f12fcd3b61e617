import { type Channel, type ChannelTestResult } from '@cm/contracts';
import { useQuery } from '@tanstack/react-query';
import { Bell, KeyRound, Send } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { CardHeading } from '../../../components/ui/card-heading';
import { EditDeleteButtons } from '../../../components/ui/edit-delete-buttons';
import { LoadError } from '../../../components/ui/load-error';
import { Skeleton } from '../../../components/ui/skeleton';
import { toast } from '../../../components/ui/use-toast';
import { errorMessage } from '../../../lib/api';
import { channelsQuery, useDeleteChannel, useRotateSecret, useTestChannel } from '../api/notifications';
import { channelTypeLabels } from '../lib/labels';

interface ChannelListProps {
  onAdd: () => void;
  onEdit: (channel: Channel) => void;
  /** A webhook's new signing secret, to be shown this once. */
  onSecret: (secret: string) => void;
}

/** The notification channels, each with its test button and, for a webhook, a new secret. */
export function ChannelList({ onAdd, onEdit, onSecret }: ChannelListProps) {
  const channels = useQuery(channelsQuery);
  const remove = useDeleteChannel();
  const test = useTestChannel();
  const rotate = useRotateSecret();
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
      onSuccess: (rotated) => onSecret(rotated.secret ?? ''),
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
    <Card className="space-y-3 p-4">
      <CardHeading icon={Bell} title="Notification Channels" addLabel="Add channel" onAdd={onAdd} />
      {channels.isPending ? (
        <Skeleton className="h-16 w-full" />
      ) : channels.isError ? (
        <LoadError what="notification channels" error={channels.error} onRetry={() => channels.refetch()} />
      ) : channels.data.length === 0 ? (
        <p className="text-sm text-slate-600">
          No channels yet. Add a webhook (Slack, Teams or your own receiver) or an e-mail list to be told when
          equipment goes offline.
        </p>
      ) : (
        <ul className="space-y-2">
          {channels.data.map((channel) => (
            <li key={channel.id} className="rounded-lg border border-slate-200 p-3" data-testid="channel">
              <div className="flex items-start gap-2">
                <ChannelSummary channel={channel} />
                <EditDeleteButtons
                  name={channel.name}
                  deleting={remove.isPending && remove.variables === channel.id}
                  onEdit={() => onEdit(channel)}
                  onDelete={() => confirmDelete(channel)}
                />
              </div>
              <ChannelActions
                channel={channel}
                testing={test.isPending && test.variables === channel.id}
                rotating={rotate.isPending && rotate.variables === channel.id}
                onTest={() => runTest(channel)}
                onRotate={() => confirmRotate(channel)}
              />
              <TestOutcome outcome={tested[channel.id]} />
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

/** A channel's test button and, for a webhook, its new-secret button. */
function ChannelActions({
  channel,
  testing,
  rotating,
  onTest,
  onRotate,
}: {
  channel: Channel;
  testing: boolean;
  rotating: boolean;
  onTest: () => void;
  onRotate: () => void;
}) {
  return (
    <div className="mt-2 flex flex-wrap gap-2">
      <Button
        variant="secondary"
        // The spoken name starts with the words shown, so "Send test" said aloud finds it.
        aria-label={`${testing ? 'Sending test...' : 'Send test'} to ${channel.name}`}
        disabled={testing}
        onClick={onTest}
      >
        <Send aria-hidden className="h-4 w-4" />
        {testing ? 'Sending test...' : 'Send test'}
      </Button>
      {channel.type === 'webhook' ? (
        <Button
          variant="outline"
          aria-label={`New secret for ${channel.name}`}
          disabled={rotating}
          onClick={onRotate}
        >
          <KeyRound aria-hidden className="h-4 w-4" />
          New secret
        </Button>
      ) : null}
    </div>
  );
}

/** Its name, where it sends (an address and a Matrix room, an e-mail list), and what it covers. */
function ChannelSummary({ channel }: { channel: Channel }) {
  const buildings = channel.buildingIds?.length;
  return (
    <div className="min-w-0 flex-1 space-y-1">
      <h3 className="font-semibold break-words text-slate-900">{channel.name}</h3>
      <p className="text-sm break-all text-slate-600">
        {channel.type === 'email' ? channel.recipients?.join(', ') : (channel.url ?? channel.host)}
        {channel.roomId ? ` · ${channel.roomId}` : null}
      </p>
      <div className="flex flex-wrap gap-1.5">
        <Badge variant="neutral">{channelTypeLabels[channel.type]}</Badge>
        <Badge variant={channel.enabled ? 'success' : 'neutral'}>
          {channel.enabled ? 'Enabled' : 'Disabled'}
        </Badge>
        <Badge variant="neutral">
          {buildings === undefined ? 'Whole campus' : `${buildings} building${buildings === 1 ? '' : 's'}`}
        </Badge>
      </div>
    </div>
  );
}

/** What the last test said: sent, failed and why, or still under way; or why it could not start. */
function TestOutcome({ outcome }: { outcome?: ChannelTestResult | string }) {
  if (!outcome) return null;
  const state = typeof outcome === 'string' ? 'failed' : outcome.delivery.state;
  const colour =
    state === 'sent' ? 'text-green-700' : state === 'sending' ? 'text-slate-700' : 'text-red-700';
  return (
    <p role="status" data-testid="test-outcome" className={`mt-2 text-sm ${colour}`}>
      {typeof outcome === 'string' ? outcome : outcome.message}
    </p>
  );
}
