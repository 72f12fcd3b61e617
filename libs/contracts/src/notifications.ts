import { z } from 'zod';
import {
  idSchema,
  limits,
  queryInstant,
  queryValue,
  requiredText,
  storableText,
  timestampSchema,
} from './common';
import {
  channelTypeFields,
  channelTypeSchema,
  channelUrlNames,
  mappingIssues,
  missingTypeFields,
  typeFieldsOf,
} from './channel-types';
import { equipmentStatusSchema } from './equipment';
import { incidentRefSchema } from './service-desk';

/** Recipients one e-mail channel may have: a team's list, not a mailing list. */
export const CHANNEL_MAX_RECIPIENTS = 20;
/** Deliveries in one page of the log. */
export const DELIVERIES_PAGE_MAX = 100;
/**
 * The version of the webhook body; a receiver branches on it, and it changes only with the shape.
 * 2 added `alert` (the alert messages' room, building and devices); `class` and `urgent` were
 * added to it later as optional fields, which a version 2 receiver that ignores unknown fields
 * (as JSON receivers do) needs no change for.
 */
export const WEBHOOK_PAYLOAD_VERSION = 2;
/** The header a webhook's signature travels in: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`. */
export const WEBHOOK_SIGNATURE_HEADER = 'X-CM-Signature';
/** The header naming the delivery, the same on every attempt: a receiver drops one it has seen. */
export const WEBHOOK_DELIVERY_HEADER = 'X-CM-Delivery';

/** Whether this server can send a type of channel, and if not why (what to configure). */
export const channelTypeAvailabilitySchema = z.object({
  type: channelTypeSchema,
  available: z.boolean(),
  /** Why not, naming what to set: "E-mail channels need an SMTP server: set SMTP_HOST…"; null when available. */
  reason: z.string().nullable(),
});
export type ChannelTypeAvailability = z.infer<typeof channelTypeAvailabilitySchema>;

const webhookUrl = storableText('URL')
  .trim()
  .max(limits.url, { message: `URL must be at most ${limits.url} characters` })
  .refine(
    (v) => {
      try {
        const url = new URL(v);
        return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
      } catch {
        return false;
      }
    },
    { message: 'URL must be an http:// or https:// address, such as https://hooks.example.edu/av' },
  );

const recipient = z
  .email({ message: 'Each recipient must be a valid email address' })
  .max(254, { message: 'Each recipient must be at most 254 characters' })
  .transform((v) => v.toLowerCase());

/**
 * The channel form. A webhook, Teams or Slack channel has a URL, a Matrix channel its homeserver's
 * URL, room ID and access token, an e-mail channel recipients; what a type does not have is
 * dropped. No buildings (or an empty list) means the whole campus. The access token is required
 * on create (the service checks it: an edit may leave it out).
 */
export const channelCreateSchema = z
  .object({
    name: requiredText(limits.name, 'Channel name', 'Channel name is required'),
    type: channelTypeSchema,
    url: webhookUrl.nullish(),
    recipients: z
      .array(recipient, { message: 'Recipients must be a list of email addresses' })
      .max(CHANNEL_MAX_RECIPIENTS, { message: `At most ${CHANNEL_MAX_RECIPIENTS} recipients` })
      .nullish(),
    enabled: z.boolean({ message: 'Enabled must be true or false' }).default(true),
    buildingIds: z
      .array(idSchema, { message: 'Buildings must be a list of building ids' })
      .max(1000)
      .nullish()
      .transform((v) => (v && v.length > 0 ? [...new Set(v)] : null)),
    ...channelTypeFields,
  })
  .superRefine((channel, ctx) => {
    missingTypeFields(channel, ctx);
    mappingIssues(channel, ctx);
    if (channel.type === 'email' && !channel.recipients?.length) {
      ctx.addIssue({
        code: 'custom',
        path: ['recipients'],
        message: 'An email channel needs at least one recipient',
      });
    }
  })
  .transform((channel) => ({
    ...channel,
    url: channelUrlNames[channel.type] ? (channel.url ?? null) : null,
    recipients: channel.type === 'email' ? [...new Set(channel.recipients)] : null,
    // Only where the type has them: other types' forms read as they always did.
    ...typeFieldsOf(channel),
  }));
export type ChannelCreate = z.infer<typeof channelCreateSchema>;
export type ChannelCreateInput = z.input<typeof channelCreateSchema>;

/** An edit sends the whole form again; the secret stays, and so does a credential left out. */
export const channelUpdateSchema = channelCreateSchema;
export type ChannelUpdate = ChannelCreate;

/**
 * A webhook URL's host and port, which anyone signed in may see. The rest of it is a credential:
 * the path of a Slack or Teams incoming webhook is its secret, and a URL may carry a password.
 */
export function webhookHost(url: string | null): string | null {
  if (!url) return null;
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
}

/** A channel as an administrator sees it; others get `publicChannelSchema`'s, without the URL. */
export const channelSchema = z.object({
  id: idSchema,
  name: z.string(),
  type: channelTypeSchema,
  /** The whole URL (webhook, Teams, Slack, Matrix homeserver; null for e-mail): administrators only. */
  url: z.string().nullable().optional(),
  /** The URL's host and port (null for e-mail), for everyone. */
  host: z.string().nullable(),
  recipients: z.array(z.string()).nullable(),
  /** Matrix: the room messages go to (null for other types). The access token is never answered. */
  roomId: z.string().nullable().optional(),
  /** Service desks: the integration user (its password or token is never answered). */
  username: z.string().nullable().optional(),
  /** Service desks: how alerts are written there (`serviceNowMappingSchema`, `jiraMappingSchema`). */
  mapping: z.record(z.string(), z.unknown()).nullable().optional(),
  enabled: z.boolean(),
  buildingIds: z.array(idSchema).nullable(),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
});
export type Channel = z.infer<typeof channelSchema>;

/**
 * A channel as a user who is not an administrator (or their API token) reads it: no `url`, nor a
 * service desk's integration user.
 */
export const publicChannelSchema = channelSchema.omit({ url: true, username: true });
export type PublicChannel = z.infer<typeof publicChannelSchema>;

/** A webhook's signing secret, answered once: by the create (or a rotation), and by nothing after. */
export const channelCreatedSchema = channelSchema.extend({ secret: z.string().nullable() });
export type ChannelCreated = z.infer<typeof channelCreatedSchema>;

export const deliveryStates = ['pending', 'sending', 'sent', 'failed'] as const;
export const deliveryStateSchema = z.enum(deliveryStates, {
  message: 'State must be pending, sending, sent or failed',
});
export type DeliveryState = z.infer<typeof deliveryStateSchema>;

/** The kinds of the alert engine's messages. */
export const alertMessageKinds = [
  'alert.opened',
  'alert.updated',
  'alert.recovered',
  'alert.flapping',
  /** The lines of the alerts a building had outside its teaching hours, when teaching starts. */
  'alert.digest',
  /** A device that answers ping reports a fault beyond it (its probe's reasons), or no longer does. */
  'fault.opened',
  'fault.recovered',
] as const;
export type AlertMessageKind = (typeof alertMessageKinds)[number];

/** A device an alert names: offline (inactive), partly answering (partial), or flapping. */
export const alertDeviceSchema = z.object({
  id: idSchema,
  name: z.string(),
  /** Its address or range. */
  address: z.string().nullable(),
  status: equipmentStatusSchema,
  /** Its first failed check of this run. */
  since: timestampSchema.nullable(),
  /** Equipment behind it (its upstream is this one) that cannot be reached while it is down. */
  behind: z.array(z.object({ id: idSchema, name: z.string(), address: z.string().nullable() })).optional(),
});
export type AlertDevice = z.infer<typeof alertDeviceSchema>;

/** One room's alert, as a message carries it and as the open alerts are listed. */
export const alertSchema = z.object({
  /** Null in a flapping message about equipment in no open alert. */
  id: idSchema.nullable(),
  room: z.object({ id: idSchema, name: z.string() }),
  building: z.object({ id: idSchema, name: z.string() }),
  openedAt: timestampSchema.nullable(),
  closedAt: timestampSchema.nullable(),
  /** The room's equipment with an address (the "of 5" in "2 of 5 devices offline"). */
  monitored: z.number().int(),
  devices: z.array(alertDeviceSchema),
});
export type Alert = z.infer<typeof alertSchema>;

/** A room's open alert, as `GET /api/alerts/open` lists it. */
export const openAlertSchema = alertSchema.extend({
  id: idSchema,
  openedAt: timestampSchema,
  closedAt: z.null(),
  /** The incidents it opened in service desks (ServiceNow, Jira Service Management), with links. */
  incidents: z.array(incidentRefSchema).optional(),
});
export type OpenAlert = z.infer<typeof openAlertSchema>;

/** A class a room's alert affects: its title and its time. */
export const alertClassSchema = z.object({
  title: z.string(),
  startsAt: timestampSchema,
  endsAt: timestampSchema.nullable(),
});
export type AlertClass = z.infer<typeof alertClassSchema>;

/** What a delivery carries; the alert engine writes the same shape. */
export const deliveryContentSchema = z.object({
  /** `test`, `alert`, `recovery`, …: a receiver may branch on it. */
  kind: z.string(),
  /** One line (or a few) a person reads: a chat message, an e-mail's body. */
  text: z.string(),
  /** An e-mail's subject; the text's first line when absent. */
  subject: z.string().optional(),
  /** Structured details for receivers that do more than show the text. */
  data: z.record(z.string(), z.unknown()).optional(),
  /** The alert messages' room, building and devices. */
  alert: alertSchema.optional(),
  /**
   * The class in the room when the message was decided (in progress, or starting within 30
   * minutes), from the class schedules: chat cards, e-mails and the webhook body show it.
   */
  class: alertClassSchema.optional(),
  /**
   * A problem in a room with such a class: sent even outside teaching hours, "Urgent" in its
   * title, and a service desk's incident is raised as high.
   */
  urgent: z.boolean().optional(),
});
export type DeliveryContent = z.infer<typeof deliveryContentSchema>;

export const deliverySchema = z.object({
  id: idSchema,
  channelId: idSchema,
  channelName: z.string(),
  channelType: channelTypeSchema,
  kind: z.string(),
  text: z.string(),
  state: deliveryStateSchema,
  attempts: z.number().int(),
  nextAttemptAt: timestampSchema.nullable(),
  lastError: z.string().nullable(),
  createdAt: timestampSchema,
  sentAt: timestampSchema.nullable(),
  /** A service desk's delivery: the incident of its room alert, once there is one. */
  incident: incidentRefSchema.nullable().optional(),
});
export type Delivery = z.infer<typeof deliverySchema>;

/** The outcome of the test button: sent, failed (with why), or still under way. */
export const channelTestResultSchema = z.object({ delivery: deliverySchema, message: z.string() });
export type ChannelTestResult = z.infer<typeof channelTestResultSchema>;

/** `GET /api/alerts`: newest first, a page at a time; `cursor` is the previous page's `nextCursor`. */
export const deliveryQuerySchema = z.object({
  channelId: queryValue('channelId').pipe(idSchema).optional(),
  state: queryValue('state').pipe(deliveryStateSchema).optional(),
  from: queryInstant('from').optional(),
  to: queryInstant('to').optional(),
  cursor: queryValue('cursor')
    .regex(/^[A-Za-z0-9_-]{1,200}$/, { message: 'cursor must be a nextCursor from a previous page' })
    .optional(),
  limit: z.coerce
    .number({ message: 'limit must be a number' })
    .int({ message: 'limit must be a whole number' })
    .min(1, { message: 'limit must be at least 1' })
    .max(DELIVERIES_PAGE_MAX, { message: `limit must be at most ${DELIVERIES_PAGE_MAX}` })
    .default(50),
});
export type DeliveryQuery = z.infer<typeof deliveryQuerySchema>;
export type DeliveryQueryInput = z.input<typeof deliveryQuerySchema>;

/** `GET /api/alerts/open`: every open alert, or those of one room or one building. */
export const openAlertQuerySchema = z.object({
  roomId: queryValue('roomId').pipe(idSchema).optional(),
  buildingId: queryValue('buildingId').pipe(idSchema).optional(),
});
export type OpenAlertQuery = z.infer<typeof openAlertQuerySchema>;

export const deliveryPageSchema = z.object({
  items: z.array(deliverySchema),
  /** Null on the last page. */
  nextCursor: z.string().nullable(),
});
export type DeliveryPage = z.infer<typeof deliveryPageSchema>;

/** What happens to an alert outside a building's teaching hours. */
export const quietModes = ['digest', 'drop'] as const;

const CLOCK = /^([01]\d|2[0-3]):[0-5]\d$/;
export const clockTime = (label: string) =>
  z.string({ message: `${label} must be a time such as 08:00` }).regex(CLOCK, {
    message: `${label} must be a time such as 08:00 (24-hour, HH:MM)`,
  });

/** Whether the runtime knows the IANA time zone (Europe/Berlin, America/New_York, UTC). */
export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/**
 * A building's weekly teaching hours (the same hours on each day listed, 1 Monday to 7 Sunday, in
 * its time zone). Outside them alerts wait for a morning digest (the first teaching hour) or are
 * dropped.
 */
export const quietHoursSchema = z
  .object({
    days: z
      .array(z.number().int().min(1).max(7), {
        message: 'Days must be a list of weekdays, 1 (Monday) to 7 (Sunday)',
      })
      .min(1, { message: 'Choose at least one teaching day' })
      .max(7)
      .transform((days) => [...new Set(days)].sort()),
    start: clockTime('Start'),
    end: clockTime('End'),
    timeZone: z
      .string({ message: 'Time zone must be text' })
      .refine(isTimeZone, { message: 'Time zone must be an IANA time zone, such as Europe/Berlin or UTC' }),
    outside: z.enum(quietModes, { message: 'Outside teaching hours must be digest or drop' }),
    /**
     * During teaching hours, a room whose timetable has no more classes today (in this time zone)
     * holds its alerts for the next morning's digest instead of sending them at once.
     */
    idleRoomsWait: z.boolean().default(false),
  })
  // Compared only when both are times: a malformed one has its own message.
  .refine((q) => !CLOCK.test(q.start) || !CLOCK.test(q.end) || q.end > q.start, {
    path: ['end'],
    message: 'The end must be later than the start',
  });
export type QuietHours = z.infer<typeof quietHoursSchema>;

export const buildingQuietHoursSchema = z.object({
  buildingId: idSchema,
  /** Null: alerts go out at any hour. */
  quietHours: quietHoursSchema.nullable(),
});
export type BuildingQuietHours = z.infer<typeof buildingQuietHoursSchema>;

/** gateway → inventory */
export const quietHoursMessageSchema = z.object({
  buildingId: idSchema,
  quietHours: quietHoursSchema.nullable(),
});
export type QuietHoursMessage = z.infer<typeof quietHoursMessageSchema>;

/** gateway → inventory */
export const channelUpdateMessageSchema = z.object({ id: idSchema, changes: channelUpdateSchema });
export type ChannelUpdateMessage = z.infer<typeof channelUpdateMessageSchema>;
