import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type User } from '@cm/contracts';
import { type CoreConfig, type HttpPortConfig, parseEnv } from '@cm/platform';
import { dropNamespaceSchemas, startTestService, testEnv, testNamespace } from '@cm/platform/testing';
import { type DynamicModule } from '@nestjs/common';
import { type NestExpressApplication } from '@nestjs/platform-express';
import { type z } from 'zod';
import { configSchema } from '../src/config';
import { createGateway } from '../src/gateway';

/**
 * The real auth service, from its source (jest transpiles it). Required by path so that the
 * gateway's type-check does not take in another service's files.
 */
type AuthConfig = CoreConfig & HttpPortConfig;

function authService() {
  const dir = path.resolve(__dirname, '../../auth/src');
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { AppModule } = require(path.join(dir, 'app.module')) as {
    AppModule: { forRoot(config: AuthConfig): DynamicModule };
  };
  const { configSchema: schema } = require(path.join(dir, 'config')) as {
    configSchema: z.ZodType<AuthConfig>;
  };
  /* eslint-enable @typescript-eslint/no-require-imports */
  return { module: AppModule.forRoot, schema };
}

export const adminCredentials = { username: 'chief', password: 'chief password' };

export interface Gateway {
  app: NestExpressApplication;
  base: string;
  close(): Promise<void>;
}

/** The gateway in a namespace, with a web build of its own, listening on a free loopback port. */
export async function startGateway(namespace: string, env: Record<string, string> = {}): Promise<Gateway> {
  const webDir = mkdtempSync(path.join(tmpdir(), 'cm-web-'));
  writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>Classroom Monitor</title>');
  const config = parseEnv(configSchema, testEnv(namespace, { PORT: '0', WEB_DIST_DIR: webDir, ...env }));
  const app = await createGateway(config);
  await app.listen(0, '127.0.0.1');
  const base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  return { app, base, close: () => app.close() };
}

/** The value of a Cookie header that carries the session a response set. */
export function sessionCookieOf(res: Response): string | null {
  const set = res.headers.getSetCookie().find((c) => c.startsWith('cm.sid='));
  return set ? set.split(';')[0] : null;
}

export async function signIn(base: string, username: string, password: string, headers = {}) {
  const res = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ username, password }),
  });
  if (res.status !== 200) throw new Error(`sign-in of ${username}: ${res.status} ${await res.text()}`);
  return { cookie: sessionCookieOf(res)!, user: (await res.json()) as User };
}

/**
 * The auth service and a gateway in one namespace of their own: enough for every session and
 * access rule (routes of services that are not running answer 503 to those let through).
 */
export async function startAuthAndGateway(env: Record<string, string> = {}) {
  const namespace = testNamespace('gw');
  const auth = await startTestService({
    service: 'auth',
    ...authService(),
    namespace,
    env: { ADMIN_USERNAME: adminCredentials.username, ADMIN_PASSWORD: adminCredentials.password },
  });
  let gateway = await startGateway(namespace, env);
  return {
    namespace,
    auth,
    get base() {
      return gateway.base;
    },
    get gateway() {
      return gateway;
    },
    signIn: (username: string, password: string, headers = {}) =>
      signIn(gateway.base, username, password, headers),
    signInAdmin: () => signIn(gateway.base, adminCredentials.username, adminCredentials.password),
    /** Stops the gateway and starts a new one on the same database and namespace. */
    restartGateway: async () => {
      await gateway.close();
      gateway = await startGateway(namespace, env);
    },
    close: async () => {
      await gateway.close();
      await auth.close();
      await dropNamespaceSchemas(namespace);
    },
  };
}
