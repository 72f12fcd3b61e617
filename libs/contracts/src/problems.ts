import { z } from 'zod';
import { idSchema, timestampSchema } from './common';

/** How many of a room's or building's devices are in each status right now. */
export const statusCountsSchema = z.object({
  active: z.number().int().nonnegative(),
  inactive: z.number().int().nonnegative(),
  partial: z.number().int().nonnegative(),
  maintenance: z.number().int().nonnegative(),
});
export type StatusCounts = z.infer<typeof statusCountsSchema>;

/**
 * How many of a room's or building's devices report a fault beyond ping now (their health is a
 * warning or an error), whatever their status: a projector that answers ping with a dead lamp.
 */
export const faultCountSchema = z.number().int().nonnegative();

export { type RollupStatus, rollupStatus } from './rollup-status';

export const problemStatuses = ['inactive', 'partial'] as const;

export const problemDeviceSchema = z.object({
  id: idSchema,
  name: z.string(),
  status: z.enum(problemStatuses),
  ipAddress: z.string().nullable(),
  /** When its current status began. */
  since: timestampSchema,
});
export type ProblemDevice = z.infer<typeof problemDeviceSchema>;

export const problemRoomSchema = z.object({
  id: idSchema,
  name: z.string(),
  floor: z.string(),
  devices: z.array(problemDeviceSchema),
});
export type ProblemRoom = z.infer<typeof problemRoomSchema>;

export const problemBuildingSchema = z.object({
  id: idSchema,
  name: z.string(),
  rooms: z.array(problemRoomSchema),
});

/** A device that answers ping but whose probe reports a fault: its health state and reasons. */
export const faultDeviceSchema = z.object({
  id: idSchema,
  name: z.string(),
  ipAddress: z.string().nullable(),
  state: z.enum(['warning', 'error']),
  reasons: z.array(z.string()),
  /** When its health state began. */
  since: timestampSchema,
});
export type FaultDevice = z.infer<typeof faultDeviceSchema>;

/** Faults by building and room, ordered as the problems are: longest first. */
export const faultsSchema = z.object({
  deviceCount: z.number().int().nonnegative(),
  buildings: z.array(
    problemBuildingSchema.extend({
      rooms: z.array(problemRoomSchema.extend({ devices: z.array(faultDeviceSchema) })),
    }),
  ),
});
export type Faults = z.infer<typeof faultsSchema>;

/**
 * What is down now: inactive or partial equipment by building and room. Everything is ordered by
 * how long it has been down, longest first: a building or room by its longest-down device.
 */
export const problemsSchema = z.object({
  deviceCount: z.number().int().nonnegative(),
  roomCount: z.number().int().nonnegative(),
  buildings: z.array(problemBuildingSchema),
  /**
   * Devices that answer ping but report a fault beyond it (a lamp, a wrong probe password, a
   * protocol that does not answer), apart from those offline or in maintenance.
   */
  faults: faultsSchema.optional(),
});
export type Problems = z.infer<typeof problemsSchema>;
