import { ErrorCode } from '@cm/contracts';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { type Config } from '../config';
import { bearerOf } from './bearer';

const stateChanging = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function originOf(value: string | undefined): string | null {
  if (!value) return null;
  return URL.canParse(value) ? new URL(value).origin : 'null';
}

/**
 * Cross-site request forgery: a state-changing request that a browser says comes from another
 * origin is refused. Browsers send Origin on every such fetch or form post (Referer where an old
 * one does not); a request with neither is not from a browser page and carries no ambient risk.
 * The app's own origin is PUBLIC_ORIGIN when set, otherwise the request's scheme and Host (as
 * Express reads them, so X-Forwarded-Proto/-Host count only behind a trusted proxy).
 */
export function sameOriginGuard(config: Config): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!stateChanging.has(req.method)) return next();
    // A bearer token is sent by a program that holds it, never added by a browser on its own: no
    // forgery to fear, and the access guard reads no session for such a request.
    if (bearerOf(req) !== undefined) return next();
    const claimed = originOf(req.headers.origin) ?? originOf(req.headers.referer);
    if (claimed === null) return next();
    if (ownOrigins(config, req).includes(claimed)) return next();
    res.status(403).json({
      code: ErrorCode.CROSS_SITE_REQUEST,
      message: `Refused: this request came from another site (${claimed}). Use Classroom Monitor itself.`,
    });
  };
}

/** The origin the request was sent to, as Express reads its scheme and Host; null when they make none. */
export function requestOrigin(req: Request): string | null {
  const own = `${req.protocol}://${req.host}`;
  return URL.canParse(own) ? new URL(own).origin : null;
}

/** The origins the app is served at: PUBLIC_ORIGIN, or the request's own scheme and Host. */
export function ownOrigins(config: Config, req: Request): string[] {
  if (config.PUBLIC_ORIGIN.length) return config.PUBLIC_ORIGIN;
  const own = requestOrigin(req);
  return own ? [own] : [];
}

/** The origin of ours a browser reached us at: the one it asked for when it is ours, else the first. */
export function publicOriginOf(config: Config, req: Request, claimed: (string | undefined)[] = []): string {
  const own = ownOrigins(config, req);
  return [...claimed, requestOrigin(req)].find((o) => o && own.includes(o)) ?? own[0] ?? '';
}
