import { accessSync, constants, readFileSync } from 'node:fs';
import { defaultAllowedNetworks, type Ipv4Network, isValidNamespace, parseNetworks } from '@cm/contracts';
import { z } from 'zod';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/**
 * Parses the environment once; fails listing every bad variable, not just the first. A secret
 * variable may instead come from the file its `<NAME>_FILE` names (a mounted Kubernetes Secret, a
 * Docker secret), which keeps it out of the environment other tools can read.
 */
export function parseEnv<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const { env: resolved, problems: fileProblems } = readSecretFiles(schema, env);
  const result = schema.safeParse(resolved);
  const problems = result.success
    ? []
    : result.error.issues
        // A variable whose file could not be read has no value to judge yet.
        .filter((i) => !fileProblems.some((p) => p.variable === i.path[0]))
        .map((i) => `${i.path.join('.') || 'environment'}: ${i.message}`);
  problems.unshift(...fileProblems.map((p) => p.problem));
  if (readsNats(schema)) problems.push(...natsAuthProblems(resolved));
  if (!result.success || problems.length > 0) throw new ConfigError(problems);
  return result.data;
}

const secrets = new WeakSet<z.ZodType>();

/** Marks a variable's schema as a secret's: it may also be given as a file, by `<NAME>_FILE`. */
export function secret<T extends z.ZodType>(schema: T): T {
  secrets.add(schema);
  return schema;
}

/** The object shape of a process's schema, through any `.transform()` pipe. */
function shapeOf(schema: z.ZodType): Record<string, z.ZodType> | undefined {
  const def = schema._zod.def as { type: string; shape?: Record<string, z.ZodType>; in?: z.ZodType };
  if (def.type === 'pipe') return shapeOf(def.in!);
  return def.type === 'object' ? def.shape : undefined;
}

/** The variables of a schema marked `secret`, each of which may come from `<NAME>_FILE`. */
export function secretVariables(schema: z.ZodType): string[] {
  return Object.entries(shapeOf(schema) ?? {})
    .filter(([, variable]) => secrets.has(variable))
    .map(([name]) => name);
}

/** The environment with each `<NAME>_FILE` of a secret replaced by the file's trimmed content. */
function readSecretFiles(
  schema: z.ZodType,
  env: NodeJS.ProcessEnv,
): { env: NodeJS.ProcessEnv; problems: { variable: string; problem: string }[] } {
  const resolved = { ...env };
  const problems: { variable: string; problem: string }[] = [];
  for (const name of secretVariables(schema)) {
    const file = env[`${name}_FILE`];
    if (!given(file)) continue;
    delete resolved[`${name}_FILE`];
    if (given(env[name])) {
      problems.push({ variable: name, problem: `${name}, ${name}_FILE: set only one of them` });
      continue;
    }
    try {
      const content = readFileSync(file!, 'utf8').trim();
      if (content === '') problems.push({ variable: name, problem: `${name}_FILE: ${file} is empty` });
      else resolved[name] = content;
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      problems.push({ variable: name, problem: `${name}_FILE: cannot read ${file} (${reason})` });
    }
  }
  return { env: resolved, problems };
}

/** Whether the schema is a process's (it reads NATS_URL), through any `.transform()` pipe. */
function readsNats(schema: z.ZodType): boolean {
  return 'NATS_URL' in (shapeOf(schema) ?? {});
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

/** A whole number setting from `min` to `max`, `fallback` when unset: `envInt(1, 100, 10)`. */
export const envInt = (min: number, max: number, fallback: number) =>
  z.coerce.number().int().min(min).max(max).default(fallback);

/** A port setting; also exported for services' own ports (gateway, metrics). */
export const envPort = (fallback: number) =>
  z.coerce.number().int().min(0, { message: 'must be a port number' }).max(65535).default(fallback);

/** A comma-separated setting's entries, trimmed, without empty ones ("a, ,b" is a and b). */
export const listOf = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);

/** Unset and empty alike mean "not given": a chart or compose file may pass an empty value. */
export const optionalText = () =>
  z.preprocess((v) => (v === '' ? undefined : v), z.string().min(1).optional());

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

const millis = (fallback: number, max = 600_000) => envInt(1, max, fallback);

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
  NATS_PASSWORD: secret(optionalText()),
  NATS_TOKEN: secret(optionalText()),
  /** A `.creds` file (user JWT and NKey seed), as `nsc` writes it. */
  NATS_CREDS_FILE: readableFile,
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url({ message: 'must be a URL' }).optional(),
  OTEL_TRACES_SAMPLER_ARG: z.coerce.number().min(0).max(1).default(1),
  SHUTDOWN_TIMEOUT_MS: millis(10_000),
};

/** What every process that owns a schema reads. */
export const databaseEnv = {
  DATABASE_URL: secret(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, { message: 'must be a postgres:// URL' })
      .default('postgres://postgres@127.0.0.1:5432/classroom_monitor'),
  ),
  DATABASE_POOL_MAX: envInt(1, 200, 10),
  DATABASE_STATEMENT_TIMEOUT_MS: millis(15_000),
  /**
   * `run`: the process migrates its schema at start (under a lock, so replicas migrate once).
   * `wait`: a migration job does (`node dist/main.js migrate`); the process waits until its schema
   * has every migration it was built with.
   */
  DATABASE_MIGRATIONS: z.enum(['run', 'wait'], { message: 'must be run or wait' }).default('run'),
  /** With `wait`: how long to wait before giving up (exit 1); keep it within the startup probe's window. */
  DATABASE_MIGRATIONS_WAIT_MS: millis(100_000, 3_600_000),
};

/** What every process that creates JetStream streams or KV buckets reads. */
export const jetStreamEnv = {
  /**
   * Copies of each stream and KV bucket, on as many NATS servers: 1 for a single server, 3 for a
   * cluster (the state then survives the loss of one server). Existing ones are changed to it.
   */
  NATS_STREAM_REPLICAS: z.coerce
    .number({ message: 'must be a whole number from 1 to 5' })
    .int({ message: 'must be a whole number from 1 to 5' })
    .min(1, { message: 'must be a whole number from 1 to 5' })
    .max(5, { message: 'must be a whole number from 1 to 5 (NATS keeps at most 5 copies)' })
    .default(1),
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

/**
 * Where the object store is, as the services reach it: media signs and calls it there, and the
 * gateway forwards browsers' uploads to it. Both must name the same bucket.
 */
export const objectStoreEnv = {
  S3_ENDPOINT: z.url({ protocol: /^https?$/, message: 'must be the http(s) URL of an S3-compatible API' }),
  /** Defaults to `<CM_NAMESPACE>-media` (`bucketOf`). */
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, { message: 'must be a valid S3 bucket name' })
    .optional(),
  /** Path-style addressing (`<endpoint>/<bucket>/<key>`), which MinIO and most compatible stores need. */
  S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false', '1', '0'])
    .default('true')
    .transform((v) => v === 'true' || v === '1'),
};

/** The media bucket: S3_BUCKET, or one named after the namespace. */
export function bucketOf(config: { CM_NAMESPACE: string; S3_BUCKET?: string }): string {
  return config.S3_BUCKET ?? `${config.CM_NAMESPACE.replace(/_/g, '-')}-media`;
}

/** The HTTP port a NATS microservice listens on for probes and metrics. */
export const httpPortEnv = (fallback: number) => ({
  HTTP_PORT: envPort(fallback),
  HTTP_HOST: z.string().default('127.0.0.1'),
});

export const coreEnvSchema = z.object(coreEnv);
export type CoreConfig = z.infer<typeof coreEnvSchema>;
export const databaseEnvSchema = z.object(databaseEnv);
export type DatabaseConfig = z.infer<typeof databaseEnvSchema>;
export const jetStreamEnvSchema = z.object(jetStreamEnv);
export type JetStreamConfig = z.infer<typeof jetStreamEnvSchema>;
export type HttpPortConfig = { HTTP_PORT: number; HTTP_HOST: string };

/** Nest injection token for the parsed configuration object of the process. */
export const CONFIG = Symbol('CONFIG');
