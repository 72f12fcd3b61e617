import { type z } from 'zod';
import { type ErrorCode } from './errors';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Who may call a route: anyone, any signed-in user, or administrators only. */
export type Access = 'public' | 'user' | 'admin';

export interface ApiRouteDef {
  method: HttpMethod;
  /** Express-style path: `/api/buildings/:id`. */
  path: string;
  summary: string;
  tag: string;
  access: Access;
  params?: z.ZodObject;
  /** The query string's parameters (each a string as it arrives). */
  query?: z.ZodObject;
  body?: z.ZodType;
  /** Non-JSON bodies (multipart uploads) are described here instead of `body`. */
  bodyContentType?: string;
  response?: z.ZodType;
  /** Non-JSON responses (a streamed CSV) are described here instead of `response`. */
  responseContentType?: string;
  /** Success status when it is not 200. */
  status?: number;
  /**
   * A create or an edit that takes an `Idempotency-Key` header: a retry with the same key answers
   * the first result instead of creating a second record (or, for an edit, instead of being
   * refused as stale by the version the first one made).
   */
  idempotent?: true;
  /**
   * A read, edit or delete of one versioned record: a read's or an edit's answer carries its
   * version as `ETag`; an edit or a delete takes `If-Match` and is refused with 412 (and the
   * current record) when it names an older one.
   */
  versioned?: true;
  /**
   * A public route that answers more to an administrator (the health routes): the session or
   * token a request carries is read when valid, and a request without one, or with one that is
   * not, is answered as anybody's, never refused.
   */
  identifiesViewer?: true;
  /**
   * The error codes this route answers besides those that follow from its shape (a body or
   * parameters, its access, an `Idempotency-Key`, a record named in its path), which the API
   * document adds by itself.
   */
  errors?: readonly ErrorCode[];
}

/** A route's path parameters as its handler receives them, parsed by the route's contract. */
export type RouteParams<R extends ApiRouteDef> = R extends { params: infer P extends z.ZodType }
  ? z.output<P>
  : never;

/** A route's query string as its handler receives it, parsed by the route's contract. */
export type RouteQuery<R extends ApiRouteDef> = R extends { query: infer Q extends z.ZodType }
  ? z.output<Q>
  : never;

/** A route's JSON body as its handler receives it, parsed by the route's contract. */
export type RouteBody<R extends ApiRouteDef> = R extends { body: infer B extends z.ZodType }
  ? z.output<B>
  : never;
