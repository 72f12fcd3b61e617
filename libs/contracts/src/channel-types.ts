import { z } from 'zod';
import { storableText } from './common';

/**
 * The kinds of notification channel. `webhook` is our signed, versioned JSON; `teams`, `slack` and
 * `matrix` are chat rooms with messages shaped for each (an Adaptive Card, Block Kit blocks, an
 * HTML room message); `email` a list of addresses.
 */
export const channelTypes = ['webhook', 'email', 'teams', 'slack', 'matrix'] as const;
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
};

/** Types whose credential is typed in by an administrator, kept sealed and never answered. */
export const credentialChannelTypes: readonly ChannelType[] = ['matrix'];

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
};

/** What `superRefine` says of a channel of `type` lacking what its type needs (on create). */
export function missingTypeFields(
  channel: { type: ChannelType; url?: string | null; roomId?: string | null },
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
}

const labels: Record<ChannelType, string> = {
  webhook: 'webhook',
  email: 'e-mail',
  teams: 'Teams',
  slack: 'Slack',
  matrix: 'Matrix',
};
const typeLabel = (type: ChannelType) => labels[type];
