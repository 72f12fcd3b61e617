import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * Middlewares run one after another as one Express layer: each layer costs every request the
 * router's walk (a path match, the prefix trimmed and restored, a try/catch and a check of what
 * the handler returned). What a middleware passes to `next` other than nothing (an error, `'route'`,
 * `'router'`) goes to Express as it would from a layer of its own, and the rest are skipped.
 */
export function middlewareChain(...handlers: RequestHandler[]): RequestHandler {
  return handlers.reduceRight<RequestHandler>(
    (rest, handler) => (req: Request, res: Response, next: NextFunction) =>
      handler(req, res, (signal?: unknown) => (signal ? next(signal) : rest(req, res, next))),
    (_req: Request, _res: Response, next: NextFunction) => next(),
  );
}
