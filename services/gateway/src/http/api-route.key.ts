/**
 * The metadata key under which `ApiRoute` keeps a handler's contract entry, apart from the
 * decorator so that the interceptors it puts on routes can read it without importing it back.
 */
export const API_ROUTE = Symbol('API_ROUTE');
