import { z } from 'zod';
import { ErrorCode } from '../errors';
import { idParamsSchema } from '../common';
import { type ApiRouteDef } from '../route-def';
import {
  MAX_SCHEDULE_FILE_BYTES,
  roomScheduleQuerySchema,
  SCHEDULE_DAYS_AHEAD,
  scheduleLocationMappingSchema,
  scheduleLocationQuerySchema,
  scheduleLocationSchema,
  scheduleOccurrenceSchema,
  scheduleSourceInputSchema,
  scheduleSourceSchema,
} from '../schedules';

/** Class schedules (the Class schedules section of Settings; docs/operations.md). */
export const scheduleRoutes = {
  listScheduleSources: {
    method: 'GET',
    path: '/api/schedule-sources',
    summary:
      'Every class schedule: its room or building, its feed URL or file, and its state (last good read, the error of a failing feed and since when, problems by line)',
    tag: 'Class schedules',
    access: 'user',
    response: z.array(scheduleSourceSchema),
  },
  createScheduleSource: {
    method: 'POST',
    path: '/api/schedule-sources',
    summary: `Add a class schedule for a room (every event is that room's) or a building (events go to rooms by their LOCATION). With url, an iCalendar feed polled from now on (ETag, every SCHEDULE_FEED_INTERVAL_MS); without, upload its .ics or CSV file next. 400 for a URL that the webhook address rules refuse (ALERTS_WEBHOOK_ALLOWED_HOSTS, ALERTS_ALLOWED_TARGETS)`,
    tag: 'Class schedules',
    access: 'admin',
    body: scheduleSourceInputSchema,
    response: scheduleSourceSchema,
    status: 201,
    errors: [ErrorCode.SCHEDULE_URL_REFUSED, ErrorCode.ROOM_NOT_FOUND, ErrorCode.BUILDING_NOT_FOUND],
  },
  updateScheduleSource: {
    method: 'PUT',
    path: '/api/schedule-sources/:id',
    summary:
      'Edit a class schedule (the whole form). A changed URL is fetched afresh; removing the URL keeps the schedule read last, for files to replace',
    tag: 'Class schedules',
    access: 'admin',
    params: idParamsSchema,
    body: scheduleSourceInputSchema,
    response: scheduleSourceSchema,
    errors: [ErrorCode.SCHEDULE_URL_REFUSED, ErrorCode.ROOM_NOT_FOUND, ErrorCode.BUILDING_NOT_FOUND],
  },
  deleteScheduleSource: {
    method: 'DELETE',
    path: '/api/schedule-sources/:id',
    summary: 'Delete a class schedule with its classes',
    tag: 'Class schedules',
    access: 'admin',
    params: idParamsSchema,
    status: 204,
  },
  uploadScheduleFile: {
    method: 'POST',
    path: '/api/schedule-sources/:id/file',
    summary: `Replace a schedule's classes with an uploaded timetable (multipart field "file": an iCalendar .ics, or a CSV with the columns Location, Title, Date, Start, End; UTF-8, at most ${MAX_SCHEDULE_FILE_BYTES} bytes). Recurrences are expanded ${SCHEDULE_DAYS_AHEAD} days ahead. A file with errors is refused whole (422, each error with its line) and the schedule in use is kept`,
    tag: 'Class schedules',
    access: 'admin',
    params: idParamsSchema,
    bodyContentType: 'multipart/form-data',
    response: scheduleSourceSchema,
    errors: [
      ErrorCode.NO_FILE,
      ErrorCode.FILE_TOO_LARGE,
      ErrorCode.SCHEDULE_FILE_INVALID,
      ErrorCode.SCHEDULE_IS_FEED,
      ErrorCode.TOO_MANY_UPLOADS,
      ErrorCode.UPLOAD_TIMEOUT,
    ],
  },
  listScheduleLocations: {
    method: 'GET',
    path: '/api/schedule-locations',
    summary:
      "The LOCATION texts of the buildings' schedules, each with the room it goes to (mapped by an administrator, or the room of that name in the building) or null; unmatched=true lists only those without a room, whose classes are not shown",
    tag: 'Class schedules',
    access: 'user',
    query: scheduleLocationQuerySchema,
    response: z.array(scheduleLocationSchema),
  },
  mapScheduleLocation: {
    method: 'PUT',
    path: '/api/schedule-locations',
    summary:
      "Send a LOCATION text's classes to a room from now on, in every building schedule (case and spacing do not matter); roomId null removes the mapping",
    tag: 'Class schedules',
    access: 'admin',
    body: scheduleLocationMappingSchema,
    response: scheduleLocationSchema,
    errors: [ErrorCode.ROOM_NOT_FOUND],
  },
  roomSchedule: {
    method: 'GET',
    path: '/api/rooms/:id/schedule',
    summary: `A room's classes that overlap from–to (default: the next 24 hours), soonest first; classes are known ${SCHEDULE_DAYS_AHEAD} days ahead`,
    tag: 'Class schedules',
    access: 'user',
    params: idParamsSchema,
    query: roomScheduleQuerySchema,
    response: z.array(scheduleOccurrenceSchema),
  },
} as const satisfies Record<string, ApiRouteDef>;
