// A client generated from the API document (openapi-typescript, by scripts/api-document.mjs) must
// agree with the contract registry the gateway serves: this file compiles only while it does.
import { type apiRoutes } from '@cm/contracts';
import { type z } from 'zod';
import { type components, type paths } from '../../artifacts/api/schema';

type Routes = typeof apiRoutes;
type Name = keyof Routes;

/** `/api/rooms/:id/equipment` → `/api/rooms/{id}/equipment`, as the document writes paths. */
type DocPath<P extends string> = P extends `${infer Head}:${infer Param}/${infer Tail}`
  ? `${Head}{${Param}}/${DocPath<Tail>}`
  : P extends `${infer Head}:${infer Param}`
    ? `${Head}{${Param}}`
    : P;

type PathOf<K extends Name> = DocPath<Routes[K]['path']>;
type MethodOf<K extends Name> = Lowercase<Routes[K]['method']>;
type Operation<K extends Name> =
  PathOf<K> extends keyof paths
    ? MethodOf<K> extends keyof paths[PathOf<K>]
      ? paths[PathOf<K>][MethodOf<K>]
      : never
    : never;
type SuccessOf<K extends Name> = Routes[K] extends { status: infer S extends number } ? S : 200;

/** The JSON body of an answer the client reads, or of a request it sends. */
type Answer<K extends Name> =
  Operation<K> extends { responses: infer R }
    ? SuccessOf<K> extends keyof R
      ? R[SuccessOf<K>] extends { content: { 'application/json': infer B } }
        ? B
        : never
      : never
    : never;
type Sent<K extends Name> =
  Operation<K> extends { requestBody: { content: { 'application/json': infer B } } } ? B : never;

/** Names of the routes for which the test fails; `never` when every route passes. */
type Failing<Test extends Record<Name, boolean>> = { [K in Name]: Test[K] extends true ? never : K }[Name];

/** Every route of the registry is an operation of the client, under its path and method. */
type IsOperation = { [K in Name]: [Operation<K>] extends [never] ? false : true };
export const everyRouteIsAnOperation: Failing<IsOperation> extends never ? true : Failing<IsOperation> = true;

/** What the gateway answers (the route's response, as its schema outputs it) is what the client reads. */
type ReadsTheAnswer = {
  [K in Name]: Routes[K] extends { response: infer S extends z.ZodType }
    ? z.output<S> extends Answer<K>
      ? true
      : false
    : true;
};
export const everyAnswerIsReadable: Failing<ReadsTheAnswer> extends never ? true : Failing<ReadsTheAnswer> =
  true;

/** What the client sends, as the document describes it, is a body the route's schema takes in. */
type SendsAValidBody = {
  [K in Name]: Routes[K] extends { body: infer S extends z.ZodType }
    ? Sent<K> extends z.input<S>
      ? true
      : false
    : true;
};
export const everyBodyIsAccepted: Failing<SendsAValidBody> extends never ? true : Failing<SendsAValidBody> =
  true;

/** Every error answer has the one error shape. */
export const errorShape: components['schemas']['Error'] = { code: 'COMMON.NOT_FOUND', message: 'Not found' };
