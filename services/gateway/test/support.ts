import { mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type ApiRouteDef, apiRoutes, type ServiceName, type User } from '@cm/contracts';
import { deleteNamespaceStreams, parseEnv } from '@cm/platform';
import {
  dropNamespaceSchemas,
  serviceFromSource,
  startLocalS3,
  startTestService,
  testEnv,
  testNamespace,
  testNatsUrl,
} from '@cm/platform/testing';
import { type INestApplicationContext } from '@nestjs/common';
import { type NestExpressApplication } from '@nestjs/platform-express';
import { z } from 'zod';
import { configSchema } from '../src/config';
import { createGateway } from '../src/gateway';
import { type IdleTimers } from '../src/http/idle-timers';
import { startSignatureCheckingStore } from './signature-checking-store';

/** `/api/rooms/:id` → a pattern its concrete paths match. */
const pathPattern = (path: string) =>
  new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z0-9_]+/g, '[^/]+')}$`);

const jsonRoutes = Object.entries(apiRoutes as Record<string, ApiRouteDef>).flatMap(([name, route]) =>
  route.response ? [{ name, route, response: route.response, pattern: pathPattern(route.path) }] : [],
);

/** The contract route of a JSON reply to `method url`, if it has a response schema. */
function jsonRouteOf(method: string, url: string) {
  const { pathname } = new URL(url);
  return jsonRoutes.find((r) => r.route.method === method.toUpperCase() && r.pattern.test(pathname));
}

/**
 * Holds a success reply to its contract route (method and path pattern) when the route has a
 * JSON response schema: the status must be the documented one, the body must parse, and it may
 * carry no field the schema does not name. Throws
 * naming the route and the issues, so the OpenAPI document cannot drift from what is served.
 */
export function checkReply(method: string, url: string, status: number, text: string): void {
  const found = status >= 200 && status <= 299 ? jsonRouteOf(method, url) : undefined;
  if (!found) return;
  const { name, route, response } = found;
  const mismatch = (why: string) => new Error(`${name} (${route.method} ${route.path}) ${why}`);
  if (status !== (route.status ?? 200))
    throw mismatch(`answered ${status}; the contract says ${route.status ?? 200}`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw mismatch(`answered a body that is not JSON: ${text.slice(0, 200)}`);
  }
  const parsed = response.safeParse(body);
  if (!parsed.success) {
    throw mismatch(`answered a body its response schema refuses:\n${z.prettifyError(parsed.error)}`);
  }
  const extra = undocumented(body, parsed.data);
  if (extra.length) throw mismatch(`answered fields its response schema does not name: ${extra.join(', ')}`);
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Paths of what a reply carries but parsing dropped: zod objects strip keys they do not name. */
function undocumented(sent: unknown, kept: unknown, at = ''): string[] {
  if (Array.isArray(sent) && Array.isArray(kept)) {
    return sent.flatMap((v, i) => undocumented(v, kept[i], `${at}[${i}]`));
  }
  if (!isRecord(sent) || !isRecord(kept)) return [];
  return Object.keys(sent).flatMap((key) => {
    const path = at ? `${at}.${key}` : key;
    return key in kept ? undocumented(sent[key], kept[key], path) : [path];
  });
}

/** The tests' fetch: the global one, with every reply held to its route's contract (checkReply). */
export const fetch: typeof globalThis.fetch = async (input, init) => {
  const res = await globalThis.fetch(input, init);
  const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
  if (res.ok && jsonRouteOf(method, res.url))
    checkReply(method, res.url, res.status, await res.clone().text());
  return res;
};

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

/**
 * Holds a gateway's idle timers of one kind (IMPORT_IDLE_TIMERS, UPLOAD_IDLE_TIMERS): none runs
 * out by itself, however long a loaded machine leaves a request unread; `runOut()` runs out every
 * one started and not yet cleared, and answers how many. `start` is the spy, to see what the
 * timers were started with; `restore()` puts the real ones back.
 */
export function holdIdleTimers(gateway: Pick<Gateway, 'app'>, token: symbol) {
  const live = new Set<{ onIdle: () => void; cleared: boolean }>();
  const start = jest.spyOn(gateway.app.get<IdleTimers>(token), 'start').mockImplementation((_ms, onIdle) => {
    // As node's: refreshing one that ran out starts it again, one that was cleared stays so.
    const timer = { onIdle, cleared: false };
    live.add(timer);
    return {
      refresh: () => void (timer.cleared || live.add(timer)),
      clear: () => {
        timer.cleared = true;
        live.delete(timer);
      },
    };
  });
  return {
    start,
    runOut(): number {
      const due = [...live];
      live.clear();
      for (const timer of due) timer.onIdle();
      return due.length;
    },
    restore: () => start.mockRestore(),
  };
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: { code?: string; message?: string; url?: string };
}

/**
 * A request whose headers go at once and whose body is sent when the test says (chunked unless
 * the headers state a length): it can stall mid-body, go on, end, or drop.
 */
export function openRequest(url: string, method: string, headers: Record<string, string | number>) {
  const { hostname, port, pathname, search } = new URL(url);
  const req = request({ hostname, port, path: `${pathname}${search}`, method, headers });
  const answer = new Promise<Answer>((resolve, reject) => {
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: JSON.parse(Buffer.concat(chunks).toString() || '{}') as Answer['body'],
        }),
      );
    });
    req.on('error', reject);
  });
  // A dropped request has no answer, and nobody waits for one.
  answer.catch(() => undefined);
  req.flushHeaders();
  return {
    answer,
    send: (bytes: Buffer) => new Promise<void>((resolve) => req.write(bytes, () => resolve())),
    end: (bytes?: Buffer) => req.end(bytes),
    drop: () => req.destroy(),
  };
}

/** JSON sent to the gateway at `base` as the holder of `cookie`: the reply's status and parsed body. */
export async function callJson<T = unknown>(
  base: string,
  cookie: string,
  path: string,
  method = 'GET',
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as T };
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

/** Says which service a test's teardown waits on, every 20 s, so that a hang names itself. */
async function watchClose(name: string, closing: Promise<unknown>) {
  const started = Date.now();
  const timer = setInterval(
    () =>
      process.stderr.write(
        `The ${name} service has been closing for ${Math.round((Date.now() - started) / 1000)} s\n`,
      ),
    20_000,
  );
  try {
    await closing;
  } finally {
    clearInterval(timer);
  }
}

/** Monitor settings for tests: quick, and pinging nothing but loopback. */
const monitorEnv = {
  MONITOR_PING_TIMEOUT_MS: '400',
  MONITOR_PING_RETRIES: '0',
  MONITOR_MEMBER_TTL_MS: '3000',
  MONITOR_CHECK_WAIT_MS: '15000',
  MONITOR_ALLOWED_NETWORKS: '127.0.0.0/8',
};

/**
 * The auth service and a gateway in one namespace of their own: enough for every session and
 * access rule (routes of services that are not running answer 503 to those let through).
 * `everyService` adds inventory, media (with a local S3 store) and monitor, so that every route
 * can answer for real; `inventory` adds inventory alone; `media` adds media and its store alone. Browsers reach that store directly
 * (S3_PUBLIC_ENDPOINT), or with `uploadsThroughGateway` only through the gateway's /store, as in
 * docker-compose.yml; then the store checks signatures as a real one does, unless
 * `unsignedStore`: then it is s3rver alone, which checks none (as `npm start` runs it).
 */
export async function startAuthAndGateway(
  env: Record<string, string> = {},
  {
    everyService = false,
    inventory = false,
    media = false,
    uploadsThroughGateway = false,
    unsignedStore = false,
    authEnv = {} as Record<string, string>,
    inventoryEnv = {} as Record<string, string>,
  } = {},
) {
  const namespace = testNamespace('gw');
  const closers: (() => Promise<unknown>)[] = [];
  const services = new Map<ServiceName, INestApplicationContext>();
  const start = async (service: ServiceName, serviceEnv: Record<string, string> = {}) => {
    const started = await startTestService({ ...serviceFromSource(service), namespace, env: serviceEnv });
    services.set(service, started.app);
    closers.unshift(() => watchClose(service, started.close()));
  };
  let gateway: Gateway;
  let signaturesChecked = () => 0;
  let storeOf = (): { endpoint: string; bucket: string } => {
    throw new Error('No object store: start media');
  };
  try {
    await start('auth', {
      ADMIN_USERNAME: adminCredentials.username,
      ADMIN_PASSWORD: adminCredentials.password,
      ...authEnv,
    });
    if (inventory && !everyService) await start('inventory', inventoryEnv);
    if (everyService || media) {
      const s3 = await startLocalS3();
      closers.unshift(() => s3.close());
      let storeEndpoint = s3.endpoint;
      storeOf = () => ({ endpoint: s3.endpoint, bucket: `${namespace.replace(/_/g, '-')}-media` });
      if (uploadsThroughGateway && !unsignedStore) {
        const checking = await startSignatureCheckingStore(s3.endpoint, 'S3RVER');
        closers.unshift(() => checking.close());
        storeEndpoint = checking.endpoint;
        signaturesChecked = checking.checked;
      }
      if (everyService) await start('inventory', inventoryEnv);
      await start('media', {
        S3_ENDPOINT: storeEndpoint,
        S3_ACCESS_KEY_ID: 'S3RVER',
        S3_SECRET_ACCESS_KEY: 'S3RVER',
      });
      if (everyService) await start('monitor', monitorEnv);
      env = uploadsThroughGateway
        ? { S3_ENDPOINT: storeEndpoint, S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER', ...env }
        : { S3_PUBLIC_ENDPOINT: s3.endpoint, ...env };
    }
    gateway = await startGateway(namespace, env);
  } catch (error) {
    for (const close of closers) await close();
    await dropNamespaceSchemas(namespace);
    throw error;
  }
  let adminSession: Promise<string> | undefined;
  return {
    namespace,
    get base() {
      return gateway.base;
    },
    get gateway() {
      return gateway;
    },
    /** How many presigned requests the store found correctly signed (with `uploadsThroughGateway`). */
    signaturesChecked: () => signaturesChecked(),
    /** A service started beside the gateway, to read what it keeps (its metrics). */
    service(name: ServiceName): INestApplicationContext {
      const app = services.get(name);
      if (!app) throw new Error(`The ${name} service was not started`);
      return app;
    },
    /** The S3 server itself (s3rver, with its own keys), for a test to change objects behind media's back. */
    get store() {
      return storeOf();
    },
    signIn: (username: string, password: string, headers = {}) =>
      signIn(gateway.base, username, password, headers),
    signInAdmin: () => signIn(gateway.base, adminCredentials.username, adminCredentials.password),
    /**
     * The administrator's session cookie, signed in once for the file: for tests that only need
     * to be signed in (sessions live in PostgreSQL, so it outlives a gateway restart).
     */
    adminCookie: () =>
      (adminSession ??= signIn(gateway.base, adminCredentials.username, adminCredentials.password).then(
        (s) => s.cookie,
      )),
    /** Stops the gateway and starts a new one on the same database and namespace. */
    restartGateway: async () => {
      await gateway.close();
      gateway = await startGateway(namespace, env);
    },
    close: async () => {
      await watchClose('gateway', gateway.close());
      for (const close of closers) await close();
      await dropNamespaceSchemas(namespace);
      // Every gateway creates the live stream.
      await deleteNamespaceStreams(namespace, testNatsUrl);
    },
  };
}
