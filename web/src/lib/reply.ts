import { type SchemaMark, type WebRouteDef as ApiRouteDef } from './api-route-types';
import { apiRoutes } from './api-routes';
import { type z } from 'zod';

// The check of every OK answer against its route's response schema (spec section 8: a screen
// never works on a shape it does not expect).

/** What a route answers: its response schema's output. */
export type ReplyOf<R> = R extends { response: SchemaMark<infer S extends z.ZodType> }
  ? z.output<S>
  : undefined;

const routeNames = new Map<ApiRouteDef, string>(
  Object.entries(apiRoutes).map(([name, route]) => [route, name]),
);
export const describeRoute = (route: ApiRouteDef) =>
  `${routeNames.get(route) ?? 'a call'} (${route.method} ${route.path})`;

/** An OK answer that is not what the route promises: a server and a web app out of step. */
class UnexpectedReplyError extends Error {
  constructor(route: ApiRouteDef, problem: string) {
    super(`The server's answer to ${describeRoute(route)} was not as expected: ${problem}`);
    this.name = 'UnexpectedReplyError';
  }
}

/** An OK answer's text as the route's reply: JSON, checked against the route's response schema. */
export async function replyOf<R extends ApiRouteDef>(
  route: R,
  text: string,
  checks = replyChecks(),
): Promise<ReplyOf<R>> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new UnexpectedReplyError(route, 'it is not JSON');
  }
  // The route's own schema's output: the reply type, which TypeScript cannot follow through it.
  return (await checks)(route, routeNames.get(route), json) as ReplyOf<R>;
}

type ReplyChecker = (route: ApiRouteDef, name: string | undefined, json: unknown) => unknown;
let loadedChecks: Promise<ReplyChecker> | undefined;

/**
 * The reply check: the response schemas as data (./reply-checks.ts) read without zod; the few that
 * need more are checked by zod (./api-schemas.ts). A failed load is tried again by the next call.
 */
export function replyChecks(): Promise<ReplyChecker> {
  loadedChecks ??= Promise.all([import('./reply-check'), import('./reply-checks')]).then(
    ([{ checkReply }, { nodes, replies }]) =>
      async (route, name, json) => {
        const at = name === undefined ? undefined : replies[name];
        if (at !== undefined) {
          const reply = checkReply(nodes, at, json);
          if (reply.success) return reply.data;
          const { path, message } = reply.problem;
          throw new UnexpectedReplyError(route, `${path.join('.') || '(the whole answer)'}: ${message}`);
        }
        return byZod(route, name, json);
      },
  );
  loadedChecks.catch(() => (loadedChecks = undefined));
  return loadedChecks;
}

async function byZod(route: ApiRouteDef, name: string | undefined, json: unknown): Promise<unknown> {
  const schema = (await import('./api-schemas')).replySchema(name);
  if (!schema) throw new UnexpectedReplyError(route, 'the web app has no schema for it');
  const reply = schema.safeParse(json);
  if (!reply.success) {
    const problems = reply.error.issues
      .slice(0, 3)
      .map((i) => `${i.path.join('.') || '(the whole answer)'}: ${i.message}`);
    throw new UnexpectedReplyError(route, problems.join('; '));
  }
  return reply.data;
}
