import { type FieldError, etagOf, IDEMPOTENCY_KEY_HEADER, IF_MATCH_HEADER } from '@cm/contracts';
import { type QueryFunction, queryOptions } from '@tanstack/react-query';
import { type z } from 'zod';
import { type SchemaMark, type WebRouteDef as ApiRouteDef } from './api-route-types';
import { describeRoute, replyChecks, replyOf, type ReplyOf } from './reply';

/**
 * A non-OK answer. Its message is "status: body text" (or the status text when the body is
 * empty), as spec section 8 says; `status` and `body` let a screen tell a person what went wrong.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    statusText: string,
  ) {
    super(`${status}: ${body || statusText}`);
    this.name = 'ApiError';
  }
}

/**
 * No answer at all: the network is gone, or the server did not answer before the call's deadline.
 * Its message says what a person can do about it.
 */
export class NetworkError extends Error {
  constructor(readonly reason: 'offline' | 'timeout') {
    super(
      reason === 'timeout'
        ? 'The server did not answer in time. Check the connection and try again.'
        : 'Could not reach the server. Check the connection and try again.',
    );
    this.name = 'NetworkError';
  }
}

const DEFAULT_DEADLINE_MS = 15_000;
// Browser tests set it shorter, so that a call that never answers fails in seconds.
const DEADLINE_SETTING = 'cm.requestDeadlineMs';
// A poor mobile signal (about 400 kbit/s): an upload gets the time to send its bytes at this rate.
const SLOWEST_UPLOAD_BYTES_PER_S = 50_000;

/** How long a call waits for its whole answer before it gives up. */
export function requestDeadlineMs(): number {
  let set: number | undefined;
  try {
    set = Number(globalThis.localStorage?.getItem(DEADLINE_SETTING) ?? undefined);
  } catch {
    // storage refused (private mode): the default
  }
  return set && set >= 500 ? set : DEFAULT_DEADLINE_MS;
}

/** An upload's deadline: a call's, and the time its bytes take on a poor signal. */
export const uploadDeadlineMs = (bytes: number): number =>
  requestDeadlineMs() + Math.ceil((bytes / SLOWEST_UPLOAD_BYTES_PER_S) * 1000);

/**
 * `fetch` and its body as text, with a deadline on the whole exchange; no answer raises
 * `NetworkError`. A `signal` of the caller's (a query nobody wants any more) still cancels it.
 */
export async function fetchText(
  url: string,
  init: RequestInit,
  deadlineMs = requestDeadlineMs(),
): Promise<{ res: Response; text: string }> {
  // By hand rather than AbortSignal.timeout/any: Safari before 17.4 has no `any`, and the timer
  // is cleared as soon as the answer is in.
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, deadlineMs);
  const cancel = () => controller.abort();
  init.signal?.addEventListener('abort', cancel, { once: true });
  if (init.signal?.aborted) cancel();
  // A read cut off by a change of network (a phone moving from Wi-Fi to the cell network: the
  // browser drops every request under way) is asked once more at once; it changes nothing on the
  // server, and the new network usually answers it.
  const resendable = ['GET', 'HEAD'].includes((init.method ?? 'GET').toUpperCase());
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        const res = await fetch(url, { ...init, signal: controller.signal });
        return { res, text: await res.text() };
      } catch (error) {
        const cutOff =
          error instanceof TypeError && !controller.signal.aborted && globalThis.navigator?.onLine !== false;
        if (!(resendable && cutOff && attempt === 1)) throw error;
      }
    }
  } catch (error) {
    if (timedOut) throw new NetworkError('timeout');
    // fetch rejects with a TypeError only when there was no answer (offline, refused, reset).
    if (error instanceof TypeError) throw new NetworkError('offline');
    throw error;
  } finally {
    clearTimeout(timer);
    init.signal?.removeEventListener('abort', cancel);
  }
}

export async function throwIfNotOk(res: Response): Promise<void> {
  if (!res.ok) throw new ApiError(res.status, await res.text(), res.statusText);
}

/** A route that takes and answers JSON: not an upload, not a file download. */
type JsonRoute = ApiRouteDef & { bodyContentType?: never; responseContentType?: never };

type ParamsOf<R> = R extends { params: SchemaMark<infer P extends z.ZodType> } ? z.input<P> : undefined;
export type ApiBody<R> = R extends { body: SchemaMark<infer B extends z.ZodType> } ? z.input<B> : undefined;
type QueryOf<R> = R extends { query: SchemaMark<infer Q extends z.ZodType> } ? z.input<Q> : undefined;

/**
 * What a call passes after the route: its path parameters, then its body, each when it has one;
 * a route with a query string takes the query's parameters after its path parameters (left out,
 * the server's defaults apply).
 */
type ArgsOf<R> = R extends { body: true }
  ? [params: ParamsOf<R>, body: ApiBody<R>]
  : R extends { params: true }
    ? R extends { query: true }
      ? [params: ParamsOf<R>, query?: QueryOf<R>]
      : [params: ParamsOf<R>]
    : R extends { query: true }
      ? [query: QueryOf<R>]
      : [];

/** The path parameters and the query parameters among a call's arguments. */
function splitArgs(route: ApiRouteDef, args: unknown[]) {
  const [first, second] = args as [PathParams, Record<string, string> | undefined];
  if (!route.query) return { params: first, query: undefined };
  return route.params ? { params: first, query: second } : { params: undefined, query: first };
}

type PathParams = Record<string, string> | undefined;

function paramOf(route: ApiRouteDef, params: PathParams, name: string): string {
  const value = params?.[name];
  if (value === undefined) throw new Error(`${describeRoute(route)} needs the ${name} parameter`);
  return value;
}

/** The route's express-style path with each `:name` replaced by its encoded parameter. */
const pathOf = (route: ApiRouteDef, params: PathParams): string =>
  route.path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(paramOf(route, params, name)));

/**
 * A query key for a GET route: the path cut at its parameters (`/api/buildings/:buildingId/rooms`
 * is `['/api/buildings', id, 'rooms']`), so that the default fetch, which joins the key with "/",
 * asks the same path, and a key is a prefix of the keys below it for invalidation.
 */
export function queryKeyOf(route: ApiRouteDef, params?: PathParams): string[] {
  const key: string[] = [];
  let fixed: string[] = [];
  for (const segment of route.path.split('/')) {
    if (!segment.startsWith(':')) {
      fixed.push(segment);
      continue;
    }
    if (fixed.length > 0) key.push(fixed.join('/'));
    fixed = [];
    key.push(paramOf(route, params, segment.slice(1)));
  }
  if (fixed.length > 0) key.push(fixed.join('/'));
  return key;
}

/**
 * Calls a JSON route of the API: every call sends the session cookie; a JSON body and its content
 * type only when there is a payload. A non-OK answer raises `ApiError`; an OK one is checked
 * against the route's response schema, so a screen never works on a shape it does not expect.
 * The body is not parsed here: the forms have checked it with the same schema, the server checks
 * it again. No answer within the deadline raises `NetworkError`.
 */
export function apiJson<R extends JsonRoute>(route: R, ...args: ArgsOf<R>): Promise<ReplyOf<R>> {
  return callJson(route, args, {});
}

/**
 * Calls a create (a route marked `idempotent`) with the submission's Idempotency-Key: a retry
 * with the same key answers the first result, so a save whose answer was lost creates one record.
 */
export function apiCreate<R extends JsonRoute & { idempotent: true }>(
  route: R,
  idempotencyKey: string,
  ...args: ArgsOf<R>
): Promise<ReplyOf<R>> {
  return callJson(route, args, { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey });
}

/**
 * Calls an edit of a versioned record (a route marked `idempotent` and `versioned`) with its
 * Idempotency-Key and, when known, the version it was made on as If-Match: a stale one is a 412.
 */
export function apiVersionedEdit<R extends JsonRoute & { idempotent: true; versioned: true }>(
  route: R,
  idempotencyKey: string,
  ifVersion: number | undefined,
  ...args: ArgsOf<R>
): Promise<ReplyOf<R>> {
  const headers: Record<string, string> = { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey };
  if (ifVersion !== undefined) headers[IF_MATCH_HEADER] = etagOf(ifVersion);
  return callJson(route, args, headers);
}

/**
 * Calls a delete of a versioned record with, when known, the version the person saw as If-Match:
 * one edited since is a 412 with the record as it is now.
 */
export function apiVersionedDelete<R extends JsonRoute & { method: 'DELETE'; versioned: true }>(
  route: R,
  ifVersion: number | undefined,
  ...args: ArgsOf<R>
): Promise<ReplyOf<R>> {
  return callJson(route, args, ifVersion === undefined ? {} : { [IF_MATCH_HEADER]: etagOf(ifVersion) });
}

async function callJson<R extends JsonRoute>(
  route: R,
  args: ArgsOf<R>,
  headers: Record<string, string>,
  signal?: AbortSignal,
): Promise<ReplyOf<R>> {
  const { params, query } = splitArgs(route, args);
  const body = route.query ? undefined : (args as unknown[])[1];
  // The check loads beside the first call's answer, not with the first screen: issue 37's budget.
  const checks = route.response ? replyChecks() : undefined;
  // Awaited below only when the call answers: a page left or a network lost meanwhile must not
  // leave its failed load unhandled.
  checks?.catch(() => undefined);
  const search = query ? `?${new URLSearchParams(query)}` : '';
  const { res, text } = await fetchText(pathOf(route, params) + search, {
    method: route.method,
    headers: body === undefined ? headers : { ...headers, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'include',
    signal,
  });
  if (!res.ok) throw new ApiError(res.status, text, res.statusText);
  if (!route.response) return undefined as ReplyOf<R>;
  return replyOf(route, text, checks);
}

/**
 * Whether a route's answers are kept for offline use (`offline/reads.ts`): the inventory's reads,
 * marked in the route table by scripts/web-api-routes.mjs.
 */
const isKeptRead = (route: ApiRouteDef) => route.kept === true;
const unanswered = (error: unknown) => error instanceof NetworkError;

/** The query for a GET route: its key from the path, its fetch through `apiJson`. */
export function apiQuery<R extends JsonRoute & { method: 'GET' }>(route: R, ...args: ArgsOf<R>) {
  const { params, query } = splitArgs(route, args);
  // A query string's parameters follow the path in the key, so each search is cached on its own.
  const queryKey = route.query
    ? [...queryKeyOf(route, params), new URLSearchParams(query).toString()]
    : queryKeyOf(route, params);
  const read = (signal: AbortSignal) => callJson(route, args, {}, signal);
  return queryOptions({
    queryKey,
    // The inventory's reads are kept on the phone, and answered from there when the network does not.
    queryFn: async ({ signal }) => {
      if (!isKeptRead(route)) return read(signal);
      // The request leaves at once; the code that keeps its answer (IndexedDB's) comes beside it,
      // with the first such read. A read whose code could not load is not kept.
      const answer = read(signal);
      answer.catch(() => undefined);
      const reads = await import('./offline/reads').catch(() => null);
      return reads ? reads.keptRead(queryKey, () => answer, unanswered) : answer;
    },
  });
}

/** Spec section 8: a fetch can be set to answer null on 401 instead of raising. */
export async function nullOn401<T>(call: Promise<T>): Promise<T | null> {
  try {
    return await call;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

/**
 * Spec section 7, the default fetch: a GET to the query key segments joined by "/". Every query
 * of the app names its route and fetches through `apiJson`; this answers a query that does not.
 */
export function getQueryFn({ on401 }: { on401: 'returnNull' | 'throw' }): QueryFunction<unknown> {
  return ({ queryKey }) => {
    const get = async (): Promise<unknown> => {
      const { res, text } = await fetchText(queryKey.join('/'), { credentials: 'include' });
      if (!res.ok) throw new ApiError(res.status, text, res.statusText);
      return JSON.parse(text) as unknown;
    };
    return on401 === 'returnNull' ? nullOn401(get()) : get();
  };
}

/**
 * The sentence to show a person for a failed call: the server's own `message` when it answered
 * our JSON error shape, rather than "401: {"code":…}".
 */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    try {
      const parsed = JSON.parse(error.body) as { message?: unknown };
      if (typeof parsed.message === 'string' && parsed.message) return parsed.message;
    } catch {
      // not JSON: the raw text is the message
    }
    if (error.status === 0 || !error.body) return error.message;
    return error.body;
  }
  if (error instanceof Error) return error.message;
  return String(error);
}

/** The field messages of a failed call that answered our JSON error shape; none otherwise. */
export function fieldErrorsOf(error: unknown): FieldError[] {
  if (!(error instanceof ApiError)) return [];
  try {
    // errorBodySchema, read by hand so that zod stays off the first screen: a body of another
    // shape has no field messages.
    const body = JSON.parse(error.body) as { code?: unknown; message?: unknown; errors?: unknown };
    if (typeof body.code !== 'string' || typeof body.message !== 'string') return [];
    if (body.errors === undefined) return [];
    const errors = Array.isArray(body.errors) ? (body.errors as Partial<Record<string, unknown>>[]) : [];
    const fields = errors.flatMap(({ path, message }) =>
      typeof path === 'string' && typeof message === 'string' ? [{ path, message }] : [],
    );
    return Array.isArray(body.errors) && fields.length === body.errors.length ? fields : [];
  } catch {
    return [];
  }
}
