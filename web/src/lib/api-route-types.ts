import { type apiRoutes as contractRoutes, type HttpMethod } from '@cm/contracts';
import { type z } from 'zod';

declare const schemaOf: unique symbol;
/**
 * Where a contract route has a schema, the web's table (api-routes.ts) has `true`, typed with
 * the schema so that a call's arguments and reply keep the contract's types. Only types read it.
 */
export type SchemaMark<S> = true & { readonly [schemaOf]?: S };

type SchemaField = 'params' | 'query' | 'body' | 'response';
type PlainField = 'method' | 'path' | 'bodyContentType' | 'responseContentType' | 'idempotent' | 'versioned';

/** A contract route as the web app reads it at run time: without its schemas. */
export type WebRoute<R> = Pick<R, PlainField & keyof R> & {
  [K in SchemaField & keyof R]: SchemaMark<R[K]>;
} & {
  /** A read the phone keeps for offline use (the inventory's: scripts/web-api-routes.mjs). */
  kept?: true;
};

export type WebRoutes = { [N in keyof typeof contractRoutes]: WebRoute<(typeof contractRoutes)[N]> };

/** Any route of the web's table. */
export interface WebRouteDef {
  method: HttpMethod;
  path: string;
  params?: SchemaMark<z.ZodObject>;
  query?: SchemaMark<z.ZodObject>;
  body?: SchemaMark<z.ZodType>;
  response?: SchemaMark<z.ZodType>;
  bodyContentType?: string;
  responseContentType?: string;
  idempotent?: true;
  versioned?: true;
  kept?: true;
}
