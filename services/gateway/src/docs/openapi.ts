import {
  type ApiRouteDef,
  apiRoutes,
  errorBodySchema,
  ErrorCode,
  errorCodeMeanings,
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_WINDOW_HOURS,
  IDEMPOTENT_REPLAY_HEADER,
  idempotencyKeySchema,
  ETAG_HEADER,
  IF_MATCH_HEADER,
  staleWriteBodySchema,
} from '@cm/contracts';
import { httpStatusByCode, retryAfterSecondsByCode } from '@cm/platform';
import { z } from 'zod';
import { routeErrorCodes } from './route-errors';

type JsonSchema = Record<string, unknown>;

function schemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

/** `/api/rooms/:id` → `/api/rooms/{id}` */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

/** What any route can answer when the system itself fails. */
const serverErrors = [ErrorCode.INTERNAL, ErrorCode.SERVICE_UNAVAILABLE, ErrorCode.SERVICE_TIMEOUT];

/** One answer of the shared error shape, its `code` one of `codes`, each listed with its meaning. */
function errorResponse(codes: ErrorCode[]): JsonSchema {
  const retryAfter = codes.some((code) => code in retryAfterSecondsByCode || httpStatusByCode[code] === 429);
  return {
    description: codes.map((code) => `- \`${code}\`: ${errorCodeMeanings[code]}`).join('\n'),
    ...(retryAfter && {
      headers: {
        'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'integer' } },
      },
    }),
    content: {
      'application/json': {
        schema: {
          allOf: [
            { $ref: '#/components/schemas/Error' },
            { type: 'object', properties: { code: { enum: codes } } },
          ],
        },
      },
    },
  };
}

/** A route's error answers by HTTP status, lowest first. */
function errorResponses(codes: ErrorCode[]): JsonSchema {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = httpStatusByCode[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const statuses = [...byStatus.keys()].sort((a, b) => a - b);
  return Object.fromEntries(statuses.map((status) => [String(status), errorResponse(byStatus.get(status)!)]));
}

function operation(name: string, route: ApiRouteDef): JsonSchema {
  const params = [...route.path.matchAll(/:([A-Za-z0-9_]+)/g)].map(([, param]) => ({
    name: param,
    in: 'path',
    required: true,
    schema: route.params
      ? schemaOf((route.params.shape as Record<string, z.ZodType>)[param], 'input')
      : { type: 'string' },
  }));
  const shape = (route.query?.shape ?? {}) as Record<string, z.ZodType>;
  const query = Object.entries(shape).map(([name, schema]) => ({
    name,
    in: 'query',
    required: !schema.safeParse(undefined).success,
    schema: schemaOf(schema, 'input'),
  }));
  const success = String(route.status ?? 200);
  const responses: JsonSchema = {
    [success]: route.response
      ? {
          description: 'Success',
          content: { 'application/json': { schema: schemaOf(route.response, 'output') } },
        }
      : route.responseContentType
        ? { description: 'Success', content: { [route.responseContentType]: { schema: { type: 'string' } } } }
        : { description: 'Success' },
    ...errorResponses(routeErrorCodes(route)),
    default: errorResponse(serverErrors),
  };
  const op: JsonSchema = {
    operationId: name,
    summary: route.summary,
    tags: [route.tag],
    'x-access': route.access,
    // Either one: a session cookie, or an API token (never on the token routes themselves).
    security:
      route.access === 'public'
        ? []
        : route.path.startsWith('/api/tokens')
          ? [{ session: [] }]
          : [{ session: [] }, { apiToken: [] }],
    responses,
  };
  const headers = headerParameters(route);
  if (route.versioned) addVersionResponses(route, responses);
  if (params.length || query.length || headers.length) op.parameters = [...params, ...query, ...headers];
  if (route.body) {
    op.requestBody = {
      required: true,
      content: { 'application/json': { schema: schemaOf(route.body, 'input') } },
    };
  } else if (route.bodyContentType) {
    op.requestBody = { required: true, content: { [route.bodyContentType]: { schema: { type: 'object' } } } };
  }
  return op;
}

function headerParameters(route: ApiRouteDef): JsonSchema[] {
  const headers: JsonSchema[] = [];
  if (route.idempotent)
    headers.push({
      name: IDEMPOTENCY_KEY_HEADER,
      in: 'header',
      required: false,
      description: `One per submission, the same on its retries: within ${IDEMPOTENCY_WINDOW_HOURS} hours the same key from the same user on this path answers the first result (with ${IDEMPOTENT_REPLAY_HEADER}: true) instead of creating or editing again; with a different body it is a 422`,
      schema: schemaOf(idempotencyKeySchema, 'input'),
    });
  if (route.versioned && route.method !== 'GET')
    headers.push({
      name: IF_MATCH_HEADER,
      in: 'header',
      required: false,
      description: `The ${ETAG_HEADER} of the record the edit was made on ("3"): when the record has been edited since, the edit is refused with 412 and the record as it is now. Without it (or with *) the edit applies to whatever is current. Anything else is a 400`,
      schema: { type: 'string', examples: ['"3"'] },
    });
  return headers;
}

/** The record's version as the ETag of the answer; for an edit, the 412 of a stale If-Match. */
function addVersionResponses(route: ApiRouteDef, responses: JsonSchema): void {
  const success = responses[String(route.status ?? 200)] as JsonSchema;
  // A delete answers no record, so no version of one.
  if (route.method !== 'DELETE')
    success.headers = {
      [ETAG_HEADER]: {
        description:
          "The record's version (how many edits it has had, from 1), quoted: send it as If-Match with an edit",
        schema: { type: 'string', examples: ['"3"'] },
      },
    };
  // The 412 is listed with the route's other errors; its body also carries the current record.
  const stale = responses['412'] as
    { content?: Record<string, { schema: { allOf: JsonSchema[] } }> } | undefined;
  const shape = stale?.content?.['application/json']?.schema.allOf;
  if (shape) shape[0] = schemaOf(staleWriteBodySchema, 'output');
}

/** The OpenAPI 3.1 document of the whole /api surface, generated from the contract registry. */
export function buildOpenApiDocument(routes: Record<string, ApiRouteDef> = apiRoutes): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const [name, route] of Object.entries(routes)) {
    const path = openApiPath(route.path);
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = operation(name, route);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Classroom Monitor API',
      version: '1.0.0',
      description:
        'Buildings, rooms and equipment of a campus, their photos and diagrams, and ping-based status.',
      // No open licence: all rights reserved (SPDX's form for a licence of one's own).
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    // Relative: the document describes the gateway that serves it, wherever it runs.
    servers: [{ url: '/', description: 'The Classroom Monitor that serves this document' }],
    paths,
    components: {
      schemas: { Error: schemaOf(errorBodySchema, 'output') },
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: 'cm.sid' },
        apiToken: {
          type: 'http',
          scheme: 'bearer',
          description:
            'An API token (cm_…) from Settings → API Tokens. Its scope limits it: read (GET only), write (also POST, PUT, PATCH, DELETE), admin (also the administrator routes); a refusal for scope is a 403 naming the scope needed',
        },
      },
    },
  };
}
