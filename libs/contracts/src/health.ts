import { z } from 'zod';

export const checkStateSchema = z.enum(['up', 'down']);
export type CheckState = z.infer<typeof checkStateSchema>;

export const dependencyCheckSchema = z.object({
  status: checkStateSchema,
  latencyMs: z.number().nonnegative().optional(),
  detail: z.string().optional(),
});
export type DependencyCheck = z.infer<typeof dependencyCheckSchema>;

/** What `GET /api/readyz` answers, and what each service answers to its health pattern. */
export const healthReportSchema = z.object({
  status: checkStateSchema,
  checks: z.record(z.string(), dependencyCheckSchema),
});
export type HealthReport = z.infer<typeof healthReportSchema>;

export const livenessSchema = z.object({ status: z.literal('up') });
