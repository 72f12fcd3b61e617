import { z } from 'zod';
import { idSchema, timestampSchema } from './common';

/** A class's room before it starts: checked and fine, checked with problems, or not checked yet. */
export const readinessStates = ['ready', 'at-risk', 'not-checked'] as const;
export const readinessStateSchema = z.enum(readinessStates);
export type ReadinessState = z.infer<typeof readinessStateSchema>;

/** `inventory.readiness.list`: the classes starting in [from, to) (now to 12 hours on by default). */
export interface ReadinessQuery {
  from?: string;
  to?: string;
}

const named = z.object({ id: idSchema, name: z.string() });

/** One upcoming class and its room's state from the readiness check before it. */
export const readinessClassSchema = z.object({
  title: z.string(),
  startsAt: timestampSchema,
  endsAt: timestampSchema,
  room: named,
  building: named,
  state: readinessStateSchema,
  /** What puts it at risk: "Projector (10.1.2.3) offline", "Display: protocol-error". */
  reasons: z.array(z.string()),
  checkedAt: timestampSchema.nullable(),
});
export type ReadinessClass = z.infer<typeof readinessClassSchema>;

/** At most this many channels get the morning summary. */
export const READINESS_SUMMARY_MAX_CHANNELS = 50;
