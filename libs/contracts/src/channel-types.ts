import { z } from 'zod';
import { storableText } from './common';
import { jiraMappingSchema, serviceNowMappingSchema } from './service-desk';

/**
 * The kinds of notification channel. `webhook` is our signed, versioned JSON; `teams`, `slack` and
 * `matrix` are chat rooms with messages shaped for each (an Adaptive Card, Block Kit blocks, an
 * HTML room message); `servicenow` and `jira-service-management` service desks where a room's
 * alert is one incident, resolved when the room recovers; `email` a list of addresses.
 */
export const channelTypes = [
  'webhook',
  'email',
  'teams',
  'slack',
  'matrix',
  'servicenow',
  'jira-service-management',
] as const;
export const channelTypeSchema = z.enum(channelTypes, {
  message: `Type must be one of ${channelTypes.join(', ')}`,
});
export type ChannelType = z.infer<typeof channelTypeSchema>;

/**
 * What the `url` of each type that has one is, as the form's message names it. The whole URL is
 * a credential for all of them (a Slack or Teams hook's path is its secret): administrators only.
 */
export const channelUrlNames: Partial<Record<ChannelType, string>> = {
  webhook: 'a URL',
  teams: 'its Workflows webhook URL',
  slack: 'its incoming webhook URL',
  matrix: "its homeserver's URL",
  servicenow: "its instance's URL",
  'jira-service-management': "its site's URL",
};

/** Service desks: a room's alert is an incident there. */
export const serviceDeskChannelTypes: readonly ChannelType[] = ['servicenow', 'jira-service-management'];

/** Types whose credential is typed in by an administrator, kept sealed and never answered. */
export const credentialChannelTypes: readonly ChannelType[] = [
  'matrix',
  'servicenow',
  'jira-service-management',
];

/** The write-only field each credential type takes. */
export const credentialFields = {
  matrix: 'accessToken',
  servicenow: 'password',
  'jira-service-management': 'token',
} as const;

/** `!opaque:server`: the room's internal id (Element: Room settings → Advanced), not an alias. */
export const MATRIX_ROOM_ID = /^![\x21-\x39\x3b-\x7e]+:[A-Za-z0-9.:[\]-]+$/;

const roomId = storableText('Room ID')
  .trim()
  .max(255, { message: 'Room ID must be at most 255 characters' })
  .refine((v) => MATRIX_ROOM_ID.test(v), {
    message:
      'Room ID must be the room\'s internal id, such as !AbCdEf:matrix.example.edu (Element: Room settings → Advanced), not an alias starting with "#"',
  });

/** A credential: printable, one line (a header's value), never shown again. */
const credential = (label: string) =>
  storableText(label)
    .trim()
    .max(2000, { message: `${label} must be at most 2000 characters` })
    .refine((v) => /^[\x21-\x7e]*$/.test(v), {
      message: `${label} must be printable characters without spaces`,
    });

/** The fields some types have besides name, url and recipients. */
export const channelTypeFields = {
  /** Matrix: the room the messages go to. */
  roomId: roomId.nullish(),
  /**
   * Matrix: the sending user's access token. Write-only: sealed with ALERTS_SECRET_KEY and never
   * answered; an edit without it keeps the stored one (unless the homeserver changes).
   */
  accessToken: credential('Access token').nullish(),
  /** Service desks: the integration user (ServiceNow user ID; Jira: the account's e-mail address). */
  username: storableText('Username')
    .trim()
    .max(200, { message: 'Username must be at most 200 characters' })
    .nullish(),
  /** ServiceNow: the integration user's password. Write-only, as the access token. */
  password: storableText('Password')
    .max(500, { message: 'Password must be at most 500 characters' })
    .nullish(),
  /** Jira Service Management: an API token of the account. Write-only, as the access token. */
  token: credential('API token').nullish(),
  /** Service desks: how an alert is written there (`serviceNowMappingSchema`, `jiraMappingSchema`). */
  mapping: z.record(z.string(), z.unknown(), { message: 'Mapping must be an object' }).nullish(),
};

/** What `superRefine` says of a channel of `type` lacking what its type needs (on create). */
export function missingTypeFields(
  channel: { type: ChannelType; url?: string | null; roomId?: string | null; username?: string | null },
  ctx: z.RefinementCtx,
): void {
  const urlName = channelUrlNames[channel.type];
  if (urlName && !channel.url) {
    const what = channel.type === 'webhook' ? 'A webhook channel' : `A ${typeLabel(channel.type)} channel`;
    ctx.addIssue({ code: 'custom', path: ['url'], message: `${what} needs ${urlName}` });
  }
  if (channel.type === 'matrix' && !channel.roomId) {
    ctx.addIssue({ code: 'custom', path: ['roomId'], message: 'A Matrix channel needs a room ID' });
  }
  if (serviceDeskChannelTypes.includes(channel.type) && !channel.username) {
    ctx.addIssue({
      code: 'custom',
      path: ['username'],
      message: `A ${typeLabel(channel.type)} channel needs the integration user's name`,
    });
  }
}

const labels: Record<ChannelType, string> = {
  webhook: 'webhook',
  email: 'e-mail',
  teams: 'Teams',
  slack: 'Slack',
  matrix: 'Matrix',
  servicenow: 'ServiceNow',
  'jira-service-management': 'Jira Service Management',
};
const typeLabel = (type: ChannelType) => labels[type];

const mappingSchemas = {
  servicenow: serviceNowMappingSchema,
  'jira-service-management': jiraMappingSchema,
} as const;

/** A service desk's mapping checked by its type's schema, each issue under `mapping.…`. */
export function mappingIssues(
  channel: { type: ChannelType; mapping?: Record<string, unknown> | null },
  ctx: z.RefinementCtx,
): void {
  if (channel.type !== 'servicenow' && channel.type !== 'jira-service-management') return;
  const parsed = mappingSchemas[channel.type].safeParse(channel.mapping ?? {});
  for (const issue of parsed.error?.issues ?? []) {
    ctx.addIssue({ code: 'custom', path: ['mapping', ...issue.path.map(String)], message: issue.message });
  }
}

type TypeFieldsIn = { type: ChannelType } & {
  [K in keyof typeof channelTypeFields]?: z.infer<(typeof channelTypeFields)[K]>;
};

/** The fields of the channel's type, the rest left out; a service desk's mapping with its defaults. */
export function typeFieldsOf(channel: TypeFieldsIn) {
  const { type } = channel;
  if (type === 'matrix') {
    return { roomId: channel.roomId ?? null, accessToken: channel.accessToken ?? null };
  }
  if (type === 'servicenow' || type === 'jira-service-management') {
    const secret =
      type === 'servicenow' ? { password: channel.password || null } : { token: channel.token ?? null };
    const mapping = mappingSchemas[type].parse(channel.mapping ?? {}) as Record<string, unknown>;
    return { username: channel.username ?? null, ...secret, mapping };
  }
  return {};
}
