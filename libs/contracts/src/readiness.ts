import { z } from 'zod';
import { idSchema, queryInstant, timestampSchema } from './common';

/** A class's room before it starts: checked and fine, checked with problems, or not checked yet. */
export const readinessStates = ['ready', 'at-risk', 'not-checked'] as const;
export const readinessStateSchema = z.enum(readinessStates);
export type ReadinessState = z.infer<typeof readinessStateSchema>;

/** `inventory.readiness.list`: the classes starting in [from, to) (now to 12 hours on by default). */
export const readinessQuerySchema = z.object({
  from: timestampSchema.optional(),
  to: timestampSchema.optional(),
});
export type ReadinessQuery = z.infer<typeof readinessQuerySchema>;

/** The longest stretch one readiness list covers: the schedules know 14 days, a screen shows hours. */
export const READINESS_QUERY_MAX_HOURS = 48;

/** `GET /api/readiness?from=&to=`: from defaults to now, to to from + 12 hours. */
export const readinessHttpQuerySchema = z
  .object({ from: queryInstant('from').optional(), to: queryInstant('to').optional() })
  .superRefine((v, ctx) => {
    const from = v.from ? Date.parse(v.from) : Date.now();
    const to = v.to ? Date.parse(v.to) : from + 12 * 3_600_000;
    if (to <= from) ctx.addIssue({ code: 'custom', path: ['to'], message: 'to must be after from' });
    else if (to - from > READINESS_QUERY_MAX_HOURS * 3_600_000)
      ctx.addIssue({
        code: 'custom',
        path: ['to'],
        message: `Ask for at most ${READINESS_QUERY_MAX_HOURS} hours at once`,
      });
  });

/** One upcoming class and its room's state from the readiness check before it. */
export const readinessClassSchema = z.object({
  title: z.string(),
  startsAt: timestampSchema,
  endsAt: timestampSchema,
  room: z.object({ id: idSchema, name: z.string() }),
  building: z.object({ id: idSchema, name: z.string() }),
  state: readinessStateSchema,
  /** What puts it at risk: "Projector (10.1.2.3) offline", "Display: protocol-error". */
  reasons: z.array(z.string()),
  checkedAt: timestampSchema.nullable(),
});
export type ReadinessClass = z.infer<typeof readinessClassSchema>;
