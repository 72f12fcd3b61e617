import { accessSync, constants } from 'node:fs';
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
  const problems = result.success
    ? []
    : result.error.issues.map((i) => `${i.path.join('.') || 'environment'}: ${i.message}`);
  if (readsNats(schema)) problems.push(...natsAuthProblems(env));
  if (!result.success || problems.length > 0) throw new ConfigError(problems);
  return result.data;
}

/** Whether the schema is a process's (it reads NATS_URL), through any `.transform()` pipe. */
function readsNats(schema: z.ZodType): boolean {
  const def = schema._zod.def as { type: string; shape?: Record<string, unknown>; in?: z.ZodType };
  if (def.type === 'pipe') return readsNats(def.in!);
  return def.type === 'object' && 'NATS_URL' in def.shape!;
}

const given = (value: string | undefined) => value !== undefined && value !== '';

/** NATS credentials come one way at a time, and a user comes with a password. */
function natsAuthProblems(env: NodeJS.ProcessEnv): string[] {
  const problems: string[] = [];
  const ways = ['NATS_USER', 'NATS_TOKEN', 'NATS_CREDS_FILE'].filter((name) => given(env[name]));
  if (ways.length > 1) problems.push(`${ways.join(', ')}: set only one way of logging in to NATS`);
  if (given(env.NATS_USER) !== given(env.NATS_PASSWORD)) {
    problems.push(
      given(env.NATS_USER)
        ? 'NATS_PASSWORD: is required with NATS_USER'
        : 'NATS_USER: is required with NATS_PASSWORD',
    );
  }
  return problems;
}

const port = (fallback: number) =>
  z.coerce.number().int().min(0, { message: 'must be a port number' }).max(65535).default(fallback);

/** Unset and empty alike mean "not given": a chart or compose file may pass an empty value. */
const optionalText = () => z.preprocess((v) => (v === '' ? undefined : v), z.string().min(1).optional());

const readableFile = optionalText().refine(
  (file) => {
    if (file === undefined) return true;
    try {
      accessSync(file, constants.R_OK);
      return true;
    } catch {
      return false;
    }
  },
  { message: 'must name a file this process can read' },
);

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
  /** Credentials for NATS (one way at a time); none: the server must let anyone in (one machine only). */
  NATS_USER: optionalText(),
  NATS_PASSWORD: optionalText(),
  NATS_TOKEN: optionalText(),
  /** A `.creds` file (user JWT and NKey seed), as `nsc` writes it. */
  NATS_CREDS_FILE: readableFile,
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
