import { ErrorCode } from '../errors';
import { z } from 'zod';
import { buildingIdParamsSchema } from '../buildings';
import { idParamsSchema } from '../common';
import {
  channelCreatedSchema,
  channelCreateSchema,
  channelSchema,
  channelTestResultSchema,
  channelTypeAvailabilitySchema,
  channelUpdateSchema,
  deliveryPageSchema,
  deliveryQuerySchema,
  buildingQuietHoursSchema,
  openAlertQuerySchema,
  openAlertSchema,
  quietHoursSchema,
} from '../notifications';
import { type ApiRouteDef } from '../route-def';

/** Notification channels and the delivery log (the Notifications tab of Settings). */
export const notificationRoutes = {
  listChannels: {
    method: 'GET',
    path: '/api/notification-channels',
    summary:
      "Every notification channel, by name (never a webhook secret or a Matrix access token). A channel's url is shown to administrators only (a Slack or Teams hook's URL is its credential); everyone sees its host",
    tag: 'Notifications',
    access: 'user',
    response: z.array(channelSchema),
  },
  channelTypes: {
    method: 'GET',
    path: '/api/notification-channel-types',
    summary:
      'Which kinds of channel this server can send, and for one it cannot, why (e-mail without SMTP_HOST, webhooks and Matrix without ALERTS_SECRET_KEY)',
    tag: 'Notifications',
    access: 'user',
    response: z.array(channelTypeAvailabilitySchema),
  },
  createChannel: {
    method: 'POST',
    path: '/api/notification-channels',
    summary:
      'Add a channel: a webhook, Teams Workflows or Slack incoming webhook (url), a Matrix room (homeserver url, roomId, accessToken: write-only) or e-mail (recipients), for the whole campus or some buildings. A webhook answers its signing secret, this once. 400 for an e-mail channel without SMTP configured, a webhook or Matrix channel without ALERTS_SECRET_KEY, a URL outside ALERTS_WEBHOOK_ALLOWED_HOSTS, or one that is (or resolves to) a loopback, link-local, private-use or other special address not listed in ALERTS_ALLOWED_TARGETS',
    tag: 'Notifications',
    access: 'admin',
    body: channelCreateSchema,
    response: channelCreatedSchema,
    status: 201,
    // Not idempotent: a kept answer would keep the signing secret, in clear, to answer it again.
    errors: [ErrorCode.CHANNEL_UNAVAILABLE],
  },
  updateChannel: {
    method: 'PUT',
    path: '/api/notification-channels/:id',
    summary:
      'Edit a channel (the whole form); a webhook keeps its secret, a Matrix channel its access token when none is given (400 if the homeserver changes without a new one)',
    tag: 'Notifications',
    access: 'admin',
    params: idParamsSchema,
    body: channelUpdateSchema,
    response: channelSchema,
    errors: [ErrorCode.CHANNEL_UNAVAILABLE],
  },
  deleteChannel: {
    method: 'DELETE',
    path: '/api/notification-channels/:id',
    summary: 'Delete a channel, with its deliveries (those not sent yet are not sent)',
    tag: 'Notifications',
    access: 'admin',
    params: idParamsSchema,
    status: 204,
  },
  testChannel: {
    method: 'POST',
    path: '/api/notification-channels/:id/test',
    summary:
      "Send a test message now, once (no retry), and answer how it went (the receiver's HTTP status, or a word for why it could not be reached: never the text it answered); one still under way after a few seconds is answered as sending, and the delivery log shows its outcome",
    tag: 'Notifications',
    access: 'admin',
    params: idParamsSchema,
    response: channelTestResultSchema,
    errors: [ErrorCode.CHANNEL_UNAVAILABLE],
  },
  rotateChannelSecret: {
    method: 'POST',
    path: '/api/notification-channels/:id/secret',
    summary:
      'Give a webhook channel a new signing secret, answered this once; messages are signed with it from now on (400 for an e-mail channel, which has none)',
    tag: 'Notifications',
    access: 'admin',
    params: idParamsSchema,
    response: channelCreatedSchema,
    errors: [ErrorCode.CHANNEL_UNAVAILABLE],
  },
  listDeliveries: {
    method: 'GET',
    path: '/api/alerts',
    summary:
      'The delivery log, newest first: every message to a channel and its outcome, filtered by channelId, state and a from/to time, a page at a time (cursor is the previous nextCursor)',
    tag: 'Notifications',
    access: 'admin',
    query: deliveryQuerySchema,
    response: deliveryPageSchema,
  },
  listOpenAlerts: {
    method: 'GET',
    path: '/api/alerts/open',
    summary:
      "The rooms' open alerts (devices offline now and since when), newest first, of one room or one building when given (404 for an unknown one)",
    tag: 'Notifications',
    access: 'user',
    query: openAlertQuerySchema,
    response: z.array(openAlertSchema),
  },
  getQuietHours: {
    method: 'GET',
    path: '/api/buildings/:buildingId/quiet-hours',
    summary:
      "A building's weekly teaching hours, outside which its alerts wait for a morning digest or are dropped (quietHours null: alerts go out at any hour)",
    tag: 'Notifications',
    access: 'user',
    params: buildingIdParamsSchema,
    response: buildingQuietHoursSchema,
  },
  setQuietHours: {
    method: 'PUT',
    path: '/api/buildings/:buildingId/quiet-hours',
    summary:
      "Set a building's teaching hours (days 1 Monday to 7 Sunday, start and end HH:MM, an IANA time zone, outside: digest or drop)",
    tag: 'Notifications',
    access: 'admin',
    params: buildingIdParamsSchema,
    body: quietHoursSchema,
    response: buildingQuietHoursSchema,
  },
  clearQuietHours: {
    method: 'DELETE',
    path: '/api/buildings/:buildingId/quiet-hours',
    summary: "Remove a building's teaching hours: its alerts go out at any hour",
    tag: 'Notifications',
    access: 'admin',
    params: buildingIdParamsSchema,
    response: buildingQuietHoursSchema,
  },
} as const satisfies Record<string, ApiRouteDef>;
