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
      "Every class schedule and its state: last good read, a failing feed's error and since when, problems by line",
    tag: 'Class schedules',
    access: 'user',
    response: z.array(scheduleSourceSchema),
  },
  createScheduleSource: {
    method: 'POST',
    path: '/api/schedule-sources',
    summary:
      'Add a class schedule for a room or a building (events placed by LOCATION): a feed with url, else a file uploaded next. Feed URLs follow the webhook address rules',
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
    summary: 'Edit a class schedule (the whole form); a changed URL is read afresh',
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
    summary: `A schedule's timetable (multipart "file": .ics or CSV, at most ${MAX_SCHEDULE_FILE_BYTES} bytes); one with errors is refused (422, errors by line)`,
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
    summary: "The LOCATION texts of buildings' schedules and their rooms (unmatched=true: those without one)",
    tag: 'Class schedules',
    access: 'user',
    query: scheduleLocationQuerySchema,
    response: z.array(scheduleLocationSchema),
  },
  mapScheduleLocation: {
    method: 'PUT',
    path: '/api/schedule-locations',
    summary: 'Map a LOCATION text to a room for every building schedule (roomId null: unmap)',
    tag: 'Class schedules',
    access: 'admin',
    body: scheduleLocationMappingSchema,
    response: scheduleLocationSchema,
    errors: [ErrorCode.ROOM_NOT_FOUND],
  },
  roomSchedule: {
    method: 'GET',
    path: '/api/rooms/:id/schedule',
    summary: `A room's classes overlapping from–to (default: the next 24 hours), known ${SCHEDULE_DAYS_AHEAD} days ahead`,
    tag: 'Class schedules',
    access: 'user',
    params: idParamsSchema,
    query: roomScheduleQuerySchema,
    response: z.array(scheduleOccurrenceSchema),
  },
} as const satisfies Record<string, ApiRouteDef>;
