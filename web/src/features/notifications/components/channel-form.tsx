import {
  type Channel,
  type ChannelTypeAvailability,
  channelCreateSchema,
  type ChannelCreate,
  channelTypes,
  channelTypeSchema,
  channelUrlNames,
} from '@cm/contracts';
import { useQuery } from '@tanstack/react-query';
import { useWatch } from 'react-hook-form';
import { z } from 'zod';
import { CheckboxListField } from '../../../components/form/checkbox-list-field';
import { FormActions } from '../../../components/form/form-actions';
import { SelectField } from '../../../components/form/select-field';
import { SwitchField } from '../../../components/form/switch-field';
import { TextField } from '../../../components/form/text-field';
import { toast } from '../../../components/ui/use-toast';
import { errorMessage } from '../../../lib/api';
import { useSchemaForm, useServerFieldErrors } from '../../../lib/form';
import { maxLengthsOf } from '../../../lib/text-limit';
import { buildingsQuery, useSaveChannel } from '../api/notifications';
import { channelTypeLabels } from '../lib/labels';
import { deskChannelOf, deskMappingFormSchema, deskMappingValues } from '../lib/service-desk-form';
import { ServiceDeskFields } from './service-desk-fields';

/**
 * What the form holds (the recipients as typed in one box, no building ticked for the whole
 * campus), turned into the channel and checked by the contract's own schema. The field of the
 * other type is kept while the type is switched, and not sent.
 */
const formSchema = z
  .object({
    name: z.string(),
    type: channelTypeSchema,
    url: z.string(),
    recipients: z.string(),
    roomId: z.string(),
    accessToken: z.string(),
    username: z.string(),
    password: z.string(),
    token: z.string(),
    mapping: deskMappingFormSchema,
    enabled: z.boolean(),
    buildingIds: z.array(z.string()),
  })
  .transform(
    ({
      url,
      recipients,
      buildingIds,
      roomId,
      accessToken,
      username,
      password,
      token,
      mapping,
      ...channel
    }): z.input<typeof channelCreateSchema> => ({
      ...channel,
      ...deskChannelOf(channel.type, { username, password, token, mapping }),
      // An empty box is no URL: the schema then says that a webhook needs one, not how to write it.
      url: channelUrlNames[channel.type] ? url.trim() || null : null,
      // Empty on an edit: the stored token stays.
      ...(channel.type === 'matrix'
        ? { roomId: roomId.trim() || null, accessToken: accessToken.trim() || null }
        : {}),
      recipients:
        channel.type === 'email'
          ? recipients
              .split(/[,;\s]+/)
              .map((r) => r.trim())
              .filter(Boolean)
          : null,
      buildingIds: buildingIds.length ? buildingIds : null,
    }),
  )
  .pipe(channelCreateSchema);
type ChannelFormValues = z.input<typeof formSchema>;

const useChannelForm = (values: ChannelFormValues) => useSchemaForm(formSchema, values);
type ChannelFormApi = ReturnType<typeof useChannelForm>;

const max = maxLengthsOf(channelCreateSchema.in);
/** The server's messages go under their fields too: it alone knows the allowed targets and the buildings. */
const serverCheckedFields = [
  'name',
  'type',
  'url',
  'recipients',
  'roomId',
  'accessToken',
  'username',
  'password',
  'token',
  'buildingIds',
] as const;

const valuesOf = (channel?: Channel, type: Channel['type'] = 'webhook'): ChannelFormValues => ({
  name: channel?.name ?? '',
  type: channel?.type ?? type,
  url: channel?.url ?? '',
  recipients: channel?.recipients?.join(', ') ?? '',
  roomId: channel?.roomId ?? '',
  // Write-only: never answered, so an edit starts empty and keeps the stored one unless typed.
  accessToken: '',
  username: channel?.username ?? '',
  password: '',
  token: '',
  mapping: deskMappingValues(channel),
  enabled: channel?.enabled ?? true,
  buildingIds: channel?.buildingIds ?? [],
});

interface ChannelFormProps {
  /** The channel to edit; none to add one. */
  channel?: Channel;
  /** Which kinds this server can send; those it cannot are not offered, and the form says why. */
  types?: readonly ChannelTypeAvailability[];
  /** Called with a new webhook's signing secret, to be shown this once. */
  onDone: (secret?: string) => void;
}

/** A webhook, a chat room or an e-mail list, for the whole campus or some buildings; its type stays once made. */
export function ChannelForm({ channel, types, onDone }: ChannelFormProps) {
  const save = useSaveChannel();
  const buildings = useQuery(buildingsQuery);
  const { offered, unavailable } = typeChoices(channel, types);
  const form = useChannelForm(valuesOf(channel, offered[0]));
  useServerFieldErrors(form.setError, save.error, serverCheckedFields);
  const type = useWatch({ control: form.control, name: 'type' });
  const editing = Boolean(channel);

  const submit = (body: ChannelCreate) =>
    save.mutate(
      { id: channel?.id, body },
      {
        onSuccess: (saved) => {
          toast({
            title: editing ? 'Channel updated' : 'Channel added',
            description: `${saved.name} was ${editing ? 'updated' : 'added'}.`,
          });
          onDone('secret' in saved && typeof saved.secret === 'string' ? saved.secret : undefined);
        },
        onError: (error) =>
          toast({
            title: editing ? 'Error updating channel' : 'Error adding channel',
            description: errorMessage(error),
            variant: 'destructive',
          }),
      },
    );

  return (
    <form className="space-y-4" onSubmit={form.handleSubmit(submit)} noValidate>
      <TextField form={form} name="name" label="Name" max={max.name} />
      <SelectField
        form={form}
        name="type"
        label="Type"
        options={offered}
        labelOf={(v) => channelTypeLabels[v as Channel['type']]}
        placeholder="Choose a type"
      />
      <UnavailableTypes types={unavailable} />
      <TypeFields form={form} type={type} editing={editing} />
      <CheckboxListField
        form={form}
        name="buildingIds"
        legend="Buildings (none: the whole campus)"
        options={(buildings.data ?? []).map((b) => ({ value: b.id, label: b.name }))}
        className="max-h-40 space-y-1 overflow-y-auto"
      />
      <SwitchField control={form.control} name="enabled" label="Enabled" />
      <FormActions
        submitLabel={save.isPending ? 'Saving...' : editing ? 'Update channel' : 'Add channel'}
        busy={save.isPending}
        onCancel={() => onDone()}
      />
    </form>
  );
}

/** What the URL box is called, says and shows, per type that has one. */
const urlFields: Partial<Record<Channel['type'], { label: string; hint: string; placeholder: string }>> = {
  webhook: {
    label: 'Webhook URL',
    hint: 'A JSON POST, signed (see the documentation)',
    placeholder: 'https://hooks.example.edu/av',
  },
  teams: {
    label: 'Workflows webhook URL',
    hint: 'From the Teams channel: Workflows → "Send webhook alerts to a channel"',
    placeholder: 'https://prod-00.westeurope.logic.azure.com/workflows/…',
  },
  slack: {
    label: 'Incoming webhook URL',
    hint: "From the Slack app's Incoming Webhooks page",
    placeholder: 'https://hooks.slack.com/services/…',
  },
  matrix: {
    label: 'Homeserver URL',
    hint: "The sending user's homeserver",
    placeholder: 'https://matrix.example.edu',
  },
};

/** The fields of the chosen type: a URL, recipients, a Matrix room and token. */
function TypeFields({
  form,
  type,
  editing,
}: {
  form: ChannelFormApi;
  type: Channel['type'];
  editing: boolean;
}) {
  const url = urlFields[type];
  if (type === 'servicenow' || type === 'jira-service-management') {
    return (
      <>
        <TextField
          form={form}
          name="url"
          label={type === 'servicenow' ? 'Instance URL' : 'Site URL'}
          max={max.url}
          hint={
            type === 'servicenow'
              ? 'Such as https://campus.service-now.com'
              : 'Such as https://campus.atlassian.net'
          }
          type="url"
          inputMode="url"
        />
        <ServiceDeskFields form={form} type={type} editing={editing} />
      </>
    );
  }
  if (!url) {
    return (
      <TextField
        form={form}
        name="recipients"
        label="Recipients"
        max={undefined}
        hint="Email addresses, separated by commas"
        multiline
        rows={2}
      />
    );
  }
  return (
    <>
      <TextField
        form={form}
        name="url"
        label={url.label}
        max={max.url}
        hint={url.hint}
        type="url"
        inputMode="url"
        placeholder={url.placeholder}
      />
      {type === 'matrix' ? (
        <>
          <TextField
            form={form}
            name="roomId"
            label="Room ID"
            max={max.roomId}
            hint="Element: Room settings → Advanced (starts with !)"
            placeholder="!AbCdEf:matrix.example.edu"
          />
          <TextField
            form={form}
            name="accessToken"
            label="Access token"
            max={max.accessToken}
            hint={editing ? 'Leave empty to keep the current token' : 'Kept sealed; never shown again'}
            type="password"
            autoComplete="new-password"
          />
        </>
      ) : null}
    </>
  );
}

/** The kinds offered (a channel keeps its own), and those this server cannot send. */
function typeChoices(channel: Channel | undefined, types: readonly ChannelTypeAvailability[] = []) {
  if (channel) return { offered: [channel.type], unavailable: [] };
  return {
    offered: channelTypes.filter((t) => types.find((a) => a.type === t)?.available ?? true),
    unavailable: types.filter((a) => !a.available),
  };
}

/** The kinds this server cannot send, each with what to set (an administrator reads the form). */
function UnavailableTypes({ types }: { types: readonly ChannelTypeAvailability[] }) {
  return types.map((a) => (
    <p key={a.type} className="text-sm text-slate-700" data-testid="channel-type-unavailable">
      {channelTypeLabels[a.type]} is not offered: {a.reason}
    </p>
  ));
}
