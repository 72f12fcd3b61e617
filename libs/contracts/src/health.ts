import { z } from 'zod';

export const checkStateSchema = z.enum(['up', 'down']);
export type CheckState = z.infer<typeof checkStateSchema>;

export const dependencyCheckSchema = z.object({
  status: checkStateSchema,
  latencyMs: z.number().nonnegative().optional(),
  detail: z.string().optional(),
  /**
   * False for a dependency that only informs (the object store, the equipment list): the process
   * still serves while it is down. Left out, as older processes do, it counts as needed.
   */
  critical: z.boolean().optional(),
});
export type DependencyCheck = z.infer<typeof dependencyCheckSchema>;

/**
 * `up`: every check passes. `degraded`: the process serves, but a check that only informs fails.
 * `down`: a check it needs fails (or it is stopping).
 */
export const reportStateSchema = z.enum(['up', 'degraded', 'down']);
export type ReportState = z.infer<typeof reportStateSchema>;

/** How a process authenticates to NATS; readiness reports it. */
export const natsAuthModes = ['none', 'user', 'token', 'creds'] as const;
export type NatsAuthMode = (typeof natsAuthModes)[number];

/**
 * What a readiness endpoint answers (`GET /api/readyz`, each service's `/readyz`), what each
 * service answers to its health pattern, and what `GET /api/status/system` answers.
 */
export const healthReportSchema = z.object({
  status: reportStateSchema,
  checks: z.record(z.string(), dependencyCheckSchema),
  /** How this process authenticates to NATS: `none` is for one machine only. */
  nats: z.object({ auth: z.enum(natsAuthModes) }).optional(),
});
export type HealthReport = z.infer<typeof healthReportSchema>;

/**
 * What the gateway's readiness and system status answer anybody but a signed-in administrator:
 * up or down, never which dependency, how the bus is secured or what a check said.
 */
export const healthSummarySchema = z.strictObject({ status: reportStateSchema });
export type HealthSummary = z.infer<typeof healthSummarySchema>;

/** `GET /api/readyz` and `GET /api/status/system`: the report for administrators, else the summary. */
export const healthAnswerSchema = z.union([healthReportSchema, healthSummarySchema]);
export type HealthAnswer = z.infer<typeof healthAnswerSchema>;

export const livenessSchema = z.object({ status: z.literal('up') });
