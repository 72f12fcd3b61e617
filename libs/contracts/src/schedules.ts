import { z } from 'zod';
import { idSchema, limits, queryInstant, requiredText, storableText, timestampSchema } from './common';

/**
 * Class schedules (issue 38): a source is an iCalendar feed (a URL inventory polls) or an
 * uploaded .ics or CSV timetable, for one room (every event is that room's) or one building
 * (events go to rooms by their LOCATION text). Its events are kept as occurrences, expanded
 * `SCHEDULE_DAYS_AHEAD` days ahead.
 */

/** How far ahead recurrences are expanded and kept. */
export const SCHEDULE_DAYS_AHEAD = 14;
/** The largest file or feed read: a building's term as iCalendar is a few hundred kB. */
export const MAX_SCHEDULE_FILE_BYTES = 512 * 1024;
/** The longest range one room's schedule answers. */
export const SCHEDULE_QUERY_MAX_DAYS = 31;
/** Problems kept and shown of one file or feed: the first ones are what to fix first. */
export const SCHEDULE_PROBLEMS_SHOWN = 20;

export const scheduleSourceKinds = ['feed', 'file'] as const;
export const scheduleSourceKindSchema = z.enum(scheduleSourceKinds);
export type ScheduleSourceKind = z.infer<typeof scheduleSourceKindSchema>;

const feedUrl = storableText('URL')
  .trim()
  .max(limits.url, { message: `URL must be at most ${limits.url} characters` })
  .refine(
    (v) => {
      try {
        const url = new URL(v.replace(/^webcals?:/i, 'https:'));
        return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
      } catch {
        return false;
      }
    },
    {
      message: 'URL must be the http(s):// or webcal:// address of an iCalendar feed',
    },
  )
  // webcal:// is how calendars offer a subscription; it is fetched over https.
  .transform((v) => v.replace(/^webcals?:/i, 'https:'));

/** `POST` and `PUT /api/schedule-sources`: a room's or a building's schedule, a feed when url is given. */
export const scheduleSourceInputSchema = z
  .object({
    name: requiredText(limits.name, 'Name'),
    roomId: idSchema.nullish(),
    buildingId: idSchema.nullish(),
    url: feedUrl.nullish().or(z.literal('').transform(() => null)),
  })
  .superRefine((v, ctx) => {
    if (!v.roomId === !v.buildingId)
      ctx.addIssue({
        code: 'custom',
        path: ['roomId'],
        message: 'Give either a roomId (its calendar) or a buildingId (rooms by location), not both',
      });
  })
  .transform((v) => ({
    name: v.name,
    roomId: v.roomId ?? null,
    buildingId: v.buildingId ?? null,
    url: v.url ?? null,
  }));
export type ScheduleSourceInput = z.infer<typeof scheduleSourceInputSchema>;

export const scheduleSourceUpdateMessageSchema = z.object({
  id: idSchema,
  changes: scheduleSourceInputSchema,
});
export type ScheduleSourceUpdateMessage = z.infer<typeof scheduleSourceUpdateMessageSchema>;

/** What is wrong with a file or feed, by line (1 for the whole file). */
export const scheduleProblemSchema = z.object({ line: z.number().int(), message: z.string() });
export type ScheduleProblem = z.infer<typeof scheduleProblemSchema>;

export const scheduleSourceSchema = z.object({
  id: idSchema,
  name: z.string(),
  roomId: idSchema.nullable(),
  buildingId: idSchema.nullable(),
  /** Where its classes go, as a person reads it: "Hall A · 101", or the building's name. */
  placeName: z.string(),
  /** A feed's address; null for an uploaded file. */
  url: z.string().nullable(),
  kind: scheduleSourceKindSchema,
  /** An uploaded file's name as the browser sent it. */
  fileName: z.string().nullable(),
  /** When the schedule in use was read (fetched or uploaded); null before a good read. */
  lastGoodAt: timestampSchema.nullable(),
  /** A feed's last fetch, whatever came of it. */
  lastCheckedAt: timestampSchema.nullable(),
  /** Since when the feed fails (the last good schedule is kept meanwhile); null while it works. */
  failingSince: timestampSchema.nullable(),
  /** Why the last fetch failed, in words a person can act on; null when it worked. */
  lastError: z.string().nullable(),
  /** Events of the last read that could not be used, by line (they are left out, the rest used). */
  problems: z.array(scheduleProblemSchema),
  /** Occurrences kept, in the next `SCHEDULE_DAYS_AHEAD` days, and how many have no room yet. */
  occurrences: z.number().int(),
  unmatched: z.number().int(),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
});
export type ScheduleSource = z.infer<typeof scheduleSourceSchema>;

/** `POST /api/schedule-sources/{id}/file`, gateway to inventory: the file as text. */
export const scheduleFileMessageSchema = z.object({
  id: idSchema,
  fileName: z.string().max(255).nullable(),
  text: z.string(),
});
export type ScheduleFileMessage = z.infer<typeof scheduleFileMessageSchema>;

export const scheduleOccurrenceSchema = z.object({
  sourceId: idSchema,
  roomId: idSchema.nullable(),
  title: z.string(),
  location: z.string().nullable(),
  start: timestampSchema,
  end: timestampSchema,
});
export type ScheduleOccurrence = z.infer<typeof scheduleOccurrenceSchema>;

/** `GET /api/rooms/{id}/schedule?from=&to=`: from defaults to now, to to from + 1 day. */
export const roomScheduleQuerySchema = z
  .object({ from: queryInstant('from').optional(), to: queryInstant('to').optional() })
  .superRefine((v, ctx) => {
    const from = v.from ? Date.parse(v.from) : Date.now();
    const to = v.to ? Date.parse(v.to) : from + 86_400_000;
    if (to <= from) ctx.addIssue({ code: 'custom', path: ['to'], message: 'to must be after from' });
    else if (to - from > SCHEDULE_QUERY_MAX_DAYS * 86_400_000)
      ctx.addIssue({
        code: 'custom',
        path: ['to'],
        message: `Ask for at most ${SCHEDULE_QUERY_MAX_DAYS} days at once`,
      });
  });
export const roomScheduleRequestSchema = z.object({
  roomId: idSchema,
  from: timestampSchema.optional(),
  to: timestampSchema.optional(),
});
export type RoomScheduleRequest = z.infer<typeof roomScheduleRequestSchema>;

/**
 * A building's rooms' classes answer at most this many per room: enough for a room's card to say
 * until when it is in use (back-to-back classes) and which class is next, however long the range.
 */
export const BUILDING_CLASSES_PER_ROOM = 8;
export const buildingClassesRequestSchema = roomScheduleRequestSchema
  .omit({ roomId: true })
  .extend({ buildingId: idSchema });
export type BuildingClassesRequest = z.infer<typeof buildingClassesRequestSchema>;

/** A LOCATION text of a building's schedule, and the room it goes to (null: not matched yet). */
export const scheduleLocationSchema = z.object({
  location: z.string(),
  roomId: idSchema.nullable(),
  /** How it was matched: mapped by an administrator, or the text is the room's name. */
  matchedBy: z.enum(['mapping', 'name']).nullable(),
  /** The building sources that name it, and their occurrences there. */
  sourceIds: z.array(idSchema),
  occurrences: z.number().int(),
});
export type ScheduleLocation = z.infer<typeof scheduleLocationSchema>;

export const scheduleLocationQuerySchema = z.object({
  unmatched: z.enum(['true', 'false'], { error: () => 'unmatched must be true or false' }).optional(),
});
export type ScheduleLocationQuery = z.infer<typeof scheduleLocationQuerySchema>;

/** `PUT /api/schedule-locations`: a LOCATION text goes to a room from now on (null: the mapping goes). */
export const scheduleLocationMappingSchema = z.object({
  location: requiredText(limits.shortText * 2, 'Location'),
  roomId: idSchema.nullable(),
});
export type ScheduleLocationMapping = z.infer<typeof scheduleLocationMappingSchema>;

/** The key a LOCATION text is matched by: case, spaces around and between words do not matter. */
export const locationKey = (text: string) => text.trim().replace(/\s+/g, ' ').toLowerCase();
