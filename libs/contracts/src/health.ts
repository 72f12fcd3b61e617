import { z } from 'zod';

export const checkStateSchema = z.enum(['up', 'down']);
export type CheckState = z.infer<typeof checkStateSchema>;

export const dependencyCheckSchema = z.object({
  status: checkStateSchema,
  latencyMs: z.number().nonnegative().optional(),
  detail: z.string().optional(),
});
export type DependencyCheck = z.infer<typeof dependencyCheckSchema>;

/** How a process authenticates to NATS; readiness reports it. */
export const natsAuthModes = ['none', 'user', 'token', 'creds'] as const;
export type NatsAuthMode = (typeof natsAuthModes)[number];

/** What `GET /api/readyz` answers, and what each service answers to its health pattern. */
export const healthReportSchema = z.object({
  status: checkStateSchema,
  checks: z.record(z.string(), dependencyCheckSchema),
  /** How this process authenticates to NATS: `none` is for one machine only. */
  nats: z.object({ auth: z.enum(natsAuthModes) }).optional(),
});
export type HealthReport = z.infer<typeof healthReportSchema>;

export const livenessSchema = z.object({ status: z.literal('up') });
