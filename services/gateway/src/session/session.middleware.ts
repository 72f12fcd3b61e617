import { ErrorCode, type SessionUser } from '@cm/contracts';
import { AppError } from '@cm/platform';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import session from 'express-session';
import { type Config } from '../config';
import { type SessionStore } from './session-store';

export const SESSION_COOKIE = 'cm.sid';

/**
 * The session cookie: HttpOnly, SameSite=Lax, Secure whenever the request came over TLS (as
 * Express sees it, so X-Forwarded-Proto counts behind a trusted proxy). Sessions are created
 * only at sign-in and last SESSION_MAX_AGE_HOURS after the last request.
 */
export function sessionMiddleware(config: Config, sessions: SessionStore): RequestHandler {
  const handler = session({
    name: SESSION_COOKIE,
    secret: config.SESSION_SECRET,
    store: sessions.store,
    resave: false,
    saveUninitialized: false,
    rolling: true,
    unset: 'destroy',
    cookie: {
      httpOnly: true,
      sameSite: 'lax',
      secure: 'auto',
      path: '/',
      maxAge: Math.round(config.SESSION_MAX_AGE_HOURS * 3600 * 1000),
    },
  });
  // A store failure would reach Express's HTML error page; answer like every other failure.
  return (req: Request, res: Response, next: NextFunction) =>
    handler(req, res, (error?: unknown) => {
      if (!error) return next();
      // Renewing a rolling session happens as the answer goes out: when that fails (the database
      // went away meanwhile) the answer is already sent and the session merely not renewed.
      if (res.headersSent) return;
      res.status(503).json({
        code: ErrorCode.SERVICE_UNAVAILABLE,
        message: unavailable,
      });
    });
}

const unavailable = 'Sessions cannot be read just now. Try again shortly.';

const promised =
  (method: 'regenerate' | 'save' | 'destroy') =>
  (req: Request): Promise<void> =>
    new Promise((resolve, reject) =>
      req.session[method]((error?: unknown) =>
        error ? reject(new AppError(ErrorCode.SERVICE_UNAVAILABLE, unavailable)) : resolve(),
      ),
    );

/** A fresh session id at sign-in, so that an id planted before sign-in is worth nothing after it. */
export async function startSession(req: Request, { user, sessionVersion }: SessionUser): Promise<void> {
  await promised('regenerate')(req);
  Object.assign(req.session, { userId: user.id, sessionVersion });
  await promised('save')(req);
}

/** Keeps the request's own session valid after its user's session version went up. */
export async function renewSessionVersion(req: Request, sessionVersion: number): Promise<void> {
  req.session.sessionVersion = sessionVersion;
  await promised('save')(req);
}

export async function endSession(req: Request, res: Response): Promise<void> {
  if (req.session) await promised('destroy')(req);
  res.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax' });
}
