import { z } from 'zod';
import { idSchema, requiredText, timestampSchema } from './common';

export { maintenanceTargetOf } from './maintenance-targets';

/**
 * Maintenance windows (issue 21): a time when a building, a room or one equipment is expected
 * not to answer. Uptime leaves the time out; alerts will stay quiet in it.
 */

/** The longest window: a longer outage is a status (maintenance), not a window. */
export const MAINTENANCE_MAX_DAYS = 90;
export const MAINTENANCE_REASON_MAX = 500;
/** The most windows one list answers, oldest start first: narrow with from/to for more. */
export const MAINTENANCE_LIST_MAX = 500;

const DAY_MS = 86_400_000;

export const maintenanceTargetKinds = ['building', 'room', 'equipment'] as const;
export type MaintenanceTargetKind = (typeof maintenanceTargetKinds)[number];
const targetFields = ['buildingId', 'roomId', 'equipmentId'] as const;

/** PostgreSQL has no year 0, which ISO 8601 allows: times before 1970 are refused as mistakes. */
const EARLIEST = Date.UTC(1970, 0, 1);
const fromEarliest = (name: string) =>
  [(v: string) => Date.parse(v) >= EARLIEST, { message: `${name} must be in 1970 or later` }] as const;

const instant = (name: 'startsAt' | 'endsAt') =>
  z
    .string({
      error: (issue) => (issue.input === undefined ? `${name} is required` : `${name} must be text`),
    })
    .pipe(
      z.iso
        .datetime({
          offset: true,
          error: () => `${name} must be an ISO 8601 date and time, such as 2026-11-01T08:00:00Z`,
        })
        .refine(...fromEarliest(name)),
    );

const reason = requiredText(MAINTENANCE_REASON_MAX, 'Reason', undefined, { multiline: true });

/**
 * Why a window's times cannot be, or null: the end after the start, at most
 * `MAINTENANCE_MAX_DAYS` apart. The service asks it again of an edit merged with what is stored.
 */
export function maintenanceTimesProblem(
  startsAt: string,
  endsAt: string,
): { path: 'endsAt'; message: string } | null {
  const start = Date.parse(startsAt);
  const end = Date.parse(endsAt);
  if (end <= start) return { path: 'endsAt', message: 'The end must be later than the start' };
  if (end - start > MAINTENANCE_MAX_DAYS * DAY_MS) {
    const days = Math.ceil((end - start) / DAY_MS);
    return {
      path: 'endsAt',
      message: `A maintenance window may last at most ${MAINTENANCE_MAX_DAYS} days; this one lasts ${days}: end it sooner, or set the equipment's status to Maintenance instead`,
    };
  }
  return null;
}

const targetsNamed = (v: Partial<Record<(typeof targetFields)[number], unknown>>) =>
  targetFields.filter((f) => v[f] !== undefined && v[f] !== null);

const oneTargetMessage = 'Name exactly one of buildingId, roomId or equipmentId: what the window is for';

const targetShape = {
  buildingId: idSchema.optional(),
  roomId: idSchema.optional(),
  equipmentId: idSchema.optional(),
};

/** `POST /api/maintenance-windows`: one target, its start and end, and why. */
export const maintenanceWindowCreateSchema = z
  .object({ ...targetShape, startsAt: instant('startsAt'), endsAt: instant('endsAt'), reason })
  .superRefine((v, ctx) => {
    if (targetsNamed(v).length !== 1)
      ctx.addIssue({ code: 'custom', path: ['target'], message: oneTargetMessage });
    const problem = maintenanceTimesProblem(v.startsAt, v.endsAt);
    if (problem) ctx.addIssue({ code: 'custom', ...problem, path: [problem.path] });
  });
export type MaintenanceWindowCreate = z.infer<typeof maintenanceWindowCreateSchema>;

/**
 * `PUT /api/maintenance-windows/{id}`: what is sent changes, the rest is kept. A target, when
 * sent, replaces the window's (one only); the times are checked again with the stored ones.
 */
export const maintenanceWindowUpdateSchema = z
  .object({
    ...targetShape,
    startsAt: instant('startsAt').optional(),
    endsAt: instant('endsAt').optional(),
    reason: reason.optional(),
  })
  .superRefine((v, ctx) => {
    if (Object.values(v).every((x) => x === undefined)) {
      ctx.addIssue({ code: 'custom', path: [], message: 'Send at least one field to change' });
      return;
    }
    if (targetsNamed(v).length > 1)
      ctx.addIssue({ code: 'custom', path: ['target'], message: oneTargetMessage });
    if (v.startsAt !== undefined && v.endsAt !== undefined) {
      const problem = maintenanceTimesProblem(v.startsAt, v.endsAt);
      if (problem) ctx.addIssue({ code: 'custom', ...problem, path: [problem.path] });
    }
  });
export type MaintenanceWindowUpdate = z.infer<typeof maintenanceWindowUpdateSchema>;

export const maintenanceWindowSchema = z.object({
  id: idSchema,
  /** Exactly one of the three is set: the window's target. */
  buildingId: idSchema.nullable(),
  roomId: idSchema.nullable(),
  equipmentId: idSchema.nullable(),
  /** The target's name, for a list that shows windows of several places. */
  targetName: z.string(),
  startsAt: timestampSchema,
  endsAt: timestampSchema,
  reason: z.string(),
});
export type MaintenanceWindow = z.infer<typeof maintenanceWindowSchema>;

const once = <T extends z.ZodType<string, string>>(name: string, inner: T) =>
  // `?roomId=a&roomId=b` arrives as an array: a different mistake from a bad value.
  z.string({ error: () => `${name} must be given once` }).pipe(inner);

const queryInstant = (name: 'from' | 'to') =>
  once(
    name,
    z
      .union([z.iso.datetime({ offset: true }), z.iso.date()], {
        error: () =>
          `${name} must be an ISO 8601 date or date and time, such as 2026-11-01 or 2026-11-01T08:00:00Z`,
      })
      .refine(...fromEarliest(name)),
  ).optional();

/**
 * `GET /api/maintenance-windows`: a place (at most one of buildingId, roomId, equipmentId)
 * selects the windows that concern it: on it, on what holds it (a room's building), and on what
 * it holds (a room's equipment). `active=true` keeps the windows in force now (`false`, the
 * others); `from`/`to` the windows that overlap that time. Values stay text: inventory reads them.
 */
export const maintenanceWindowQuerySchema = z
  .object({
    buildingId: once('buildingId', idSchema).optional(),
    roomId: once('roomId', idSchema).optional(),
    equipmentId: once('equipmentId', idSchema).optional(),
    active: once(
      'active',
      z.enum(['true', 'false'], { error: () => 'active must be true or false' }),
    ).optional(),
    from: queryInstant('from'),
    to: queryInstant('to'),
  })
  .superRefine((v, ctx) => {
    if (targetsNamed(v).length > 1) {
      ctx.addIssue({
        code: 'custom',
        path: ['roomId'],
        message: 'Filter by one of buildingId, roomId or equipmentId, not several',
      });
    }
    if (v.from && v.to && Date.parse(v.to) <= Date.parse(v.from)) {
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'to must be later than from' });
    }
  });
export type MaintenanceWindowQuery = z.infer<typeof maintenanceWindowQuerySchema>;

/** gateway → inventory */
export const maintenanceWindowUpdateMessageSchema = z.object({
  id: idSchema,
  changes: maintenanceWindowUpdateSchema,
});
export type MaintenanceWindowUpdateMessage = z.infer<typeof maintenanceWindowUpdateMessageSchema>;
