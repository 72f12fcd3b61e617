import { z } from 'zod';
import { deletedSchema, idParamsSchema } from './common';
import { message, noArguments, query } from './message-def';
import { readinessClassSchema } from './readiness';
import { readinessSummarySettingsSchema } from './readiness-summary';
import {
  buildingClassesRequestSchema,
  roomScheduleRequestSchema,
  scheduleFileMessageSchema,
  scheduleLocationMappingSchema,
  scheduleLocationQuerySchema,
  scheduleLocationSchema,
  scheduleOccurrenceSchema,
  scheduleSourceInputSchema,
  scheduleSourceSchema,
  scheduleSourceUpdateMessageSchema,
} from './schedules';

/** Inventory's class schedules and readiness before classes (issue 38), part of `messages.inventory`. */
export const scheduleMessages = {
  listScheduleSources: query('inventory.schedule.list', noArguments, z.array(scheduleSourceSchema)),
  getScheduleSource: query('inventory.schedule.get', idParamsSchema, scheduleSourceSchema),
  createScheduleSource: message('inventory.schedule.create', scheduleSourceInputSchema, scheduleSourceSchema),
  updateScheduleSource: message(
    'inventory.schedule.update',
    scheduleSourceUpdateMessageSchema,
    scheduleSourceSchema,
  ),
  deleteScheduleSource: message('inventory.schedule.delete', idParamsSchema, deletedSchema),
  /** An uploaded timetable's text (at most MAX_SCHEDULE_FILE_BYTES, well within a NATS message). */
  uploadScheduleFile: message('inventory.schedule.file', scheduleFileMessageSchema, scheduleSourceSchema),
  listScheduleLocations: query(
    'inventory.schedule.locations',
    scheduleLocationQuerySchema,
    z.array(scheduleLocationSchema),
  ),
  mapScheduleLocation: message(
    'inventory.schedule.location.map',
    scheduleLocationMappingSchema,
    scheduleLocationSchema,
  ),
  roomSchedule: query(
    'inventory.schedule.room',
    roomScheduleRequestSchema,
    z.array(scheduleOccurrenceSchema),
  ),
  buildingClasses: query(
    'inventory.schedule.building',
    buildingClassesRequestSchema,
    z.array(scheduleOccurrenceSchema),
  ),
  /** The upcoming classes and their rooms' readiness (checked N minutes before each). */
  listReadiness: query(
    'inventory.readiness.list',
    // Its own copy of the range would sit in the web app's entry chunk: the readiness schemas are there.
    roomScheduleRequestSchema.omit({ roomId: true }),
    z.array(readinessClassSchema),
  ),
  getReadinessSummary: query('inventory.readiness.summary.get', noArguments, readinessSummarySettingsSchema),
  setReadinessSummary: message(
    'inventory.readiness.summary.set',
    readinessSummarySettingsSchema,
    readinessSummarySettingsSchema,
  ),
};
