import { defaultAllowedNetworks, type Ipv4Network, isValidNamespace, parseNetworks } from '@cm/contracts';
import { z } from 'zod';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** Parses the environment once; fails listing every bad variable, not just the first. */
export function parseEnv<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const result = schema.safeParse(env);
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((i) => `${i.path.join('.') || 'environment'}: ${i.message}`),
    );
  }
  return result.data;
}

const port = (fallback: number) =>
  z.coerce.number().int().min(0, { message: 'must be a port number' }).max(65535).default(fallback);

const millis = (fallback: number, max = 600_000) => z.coerce.number().int().min(1).max(max).default(fallback);

/** What every process reads. */
export const coreEnv = {
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  CM_NAMESPACE: z
    .string()
    .default('cm')
    .refine(isValidNamespace, { message: 'must be lowercase letters, digits or _, starting with a letter' }),
  LOG_LEVEL: z.enum(['error', 'warn', 'info', 'debug']).default('info'),
  NATS_URL: z.string().min(1).default('nats://127.0.0.1:4222'),
  NATS_REQUEST_TIMEOUT_MS: millis(5000, 120_000),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url({ message: 'must be a URL' }).optional(),
  OTEL_TRACES_SAMPLER_ARG: z.coerce.number().min(0).max(1).default(1),
  SHUTDOWN_TIMEOUT_MS: millis(10_000),
};

/** What every process that owns a schema reads. */
export const databaseEnv = {
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, { message: 'must be a postgres:// URL' })
    .default('postgres://postgres@127.0.0.1:5432/classroom_monitor'),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  DATABASE_STATEMENT_TIMEOUT_MS: millis(15_000),
};

/**
 * The networks equipment may be in: the monitor pings nothing outside them and inventory stores
 * no address outside them, so both read this one variable. Unset, it takes the default for
 * NODE_ENV (`withDefaultAllowedNetworks`).
 */
export const allowedNetworksEnv = {
  MONITOR_ALLOWED_NETWORKS: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return undefined;
      const parsed = parseNetworks(value);
      if ('error' in parsed) {
        ctx.addIssue({ code: 'custom', message: parsed.error });
        return z.NEVER;
      }
      return parsed.networks;
    }),
};

/** A process's configuration with MONITOR_ALLOWED_NETWORKS filled in (a `.transform` of its schema). */
export function withDefaultAllowedNetworks<
  C extends { NODE_ENV: string; MONITOR_ALLOWED_NETWORKS?: Ipv4Network[] },
>(config: C): C & { MONITOR_ALLOWED_NETWORKS: Ipv4Network[] } {
  if (config.MONITOR_ALLOWED_NETWORKS)
    return { ...config, MONITOR_ALLOWED_NETWORKS: config.MONITOR_ALLOWED_NETWORKS };
  const parsed = parseNetworks(defaultAllowedNetworks(config.NODE_ENV));
  if ('error' in parsed) throw new Error(parsed.error);
  return { ...config, MONITOR_ALLOWED_NETWORKS: parsed.networks };
}

/** The HTTP port a NATS microservice listens on for probes and metrics. */
export const httpPortEnv = (fallback: number) => ({
  HTTP_PORT: port(fallback),
  HTTP_HOST: z.string().default('127.0.0.1'),
});

export const coreEnvSchema = z.object(coreEnv);
export type CoreConfig = z.infer<typeof coreEnvSchema>;
export const databaseEnvSchema = z.object(databaseEnv);
export type DatabaseConfig = z.infer<typeof databaseEnvSchema>;
export type HttpPortConfig = { HTTP_PORT: number; HTTP_HOST: string };

/** Nest injection token for the parsed configuration object of the process. */
export const CONFIG = Symbol('CONFIG');
