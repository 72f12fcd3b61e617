import { createHmac } from 'node:crypto';
import { ErrorCode, type SessionUser } from '@cm/contracts';
import { AppError } from '@cm/platform';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import session from 'express-session';
import { type Config } from '../config';
import { type LoadedCookie, type SessionStore } from './session-store';

export const SESSION_COOKIE = 'cm.sid';

/**
 * The session cookie: HttpOnly, SameSite=Lax, Secure whenever the request came over TLS (as
 * Express sees it, so X-Forwarded-Proto counts behind a trusted proxy). Sessions are created
 * only at sign-in and last SESSION_MAX_AGE_HOURS after the last request, and never longer than
 * SESSION_ABSOLUTE_HOURS after sign-in.
 */
export function sessionMiddleware(config: Config, sessions: SessionStore): RequestHandler {
  const idleMs = Math.round(config.SESSION_MAX_AGE_HOURS * 3600 * 1000);
  const absoluteMs = Math.round(config.SESSION_ABSOLUTE_HOURS * 3600 * 1000);
  const handler = session({
    name: SESSION_COOKIE,
    secret: config.SESSION_SECRET,
    store: sessions.store,
    resave: false,
    saveUninitialized: false,
    // Not on every answer: `resendWhenRenewed` sends it when the row's expiry moves.
    rolling: false,
    unset: 'destroy',
    cookie: {
      httpOnly: true,
      sameSite: 'lax',
      secure: 'auto',
      path: '/',
      maxAge: idleMs,
    },
  });
  const answerUnavailable = (res: Response) =>
    res.status(503).json({ code: ErrorCode.SERVICE_UNAVAILABLE, message: unavailable });
  // A store failure would reach Express's HTML error page; answer like every other failure.
  return (req: Request, res: Response, next: NextFunction) => {
    resendWhenRenewed(req, res, config.SESSION_SECRET);
    handler(req, res, (error?: unknown) => {
      if (!error) {
        if (!req.session?.userId) return next();
        // A session from before sign-in times were kept counts as too old.
        const left = (req.session.signedInAt ?? 0) + absoluteMs - sessions.now();
        if (left > 0) {
          // Expiring at the absolute end too, the cookie and the row go then even without a request.
          req.session.cookie.maxAge = Math.min(idleMs, left);
          sessions.renewalDue(req.session.cookie);
          return next();
        }
        // A fresh, empty session rather than none, so that a sign-in in this request still works.
        return promised('regenerate')(req).then(
          () => next(),
          () => answerUnavailable(res),
        );
      }
      // Renewing a rolling session happens as the answer goes out: when that fails (the database
      // went away meanwhile) the answer is already sent and the session merely not renewed.
      if (res.headersSent) return;
      answerUnavailable(res);
    });
  };
}

/**
 * express-session's `rolling` signs and sends the cookie on every answer; the browser needs it
 * only when the session's expiry moved. Hooked in before express-session's own hook, this runs
 * after it, so an answer that already sets or clears the cookie (sign-in, a changed session,
 * sign-out) is left as it is.
 */
function resendWhenRenewed(req: Request, res: Response, secret: string): void {
  const writeHead = res.writeHead;
  res.writeHead = function (this: Response, ...args: Parameters<Response['writeHead']>) {
    const cookie = req.session?.cookie;
    if (
      cookie &&
      // Set on the loaded session only: a new one (sign-in) has none.
      (cookie as LoadedCookie).renewDue &&
      !(cookie.secure && !req.secure) &&
      !setsSessionCookie(res)
    ) {
      // The signed value express-session writes (cookie-signature): `s:` + id + `.` + HMAC.
      const mac = createHmac('sha256', secret).update(req.sessionID).digest('base64').replace(/=+$/, '');
      res.cookie(SESSION_COOKIE, `s:${req.sessionID}.${mac}`, {
        expires: cookie.expires ?? undefined,
        httpOnly: cookie.httpOnly,
        path: cookie.path,
        sameSite: cookie.sameSite,
        secure: cookie.secure === true,
        domain: cookie.domain,
      });
    }
    return writeHead.apply(this, args);
  } as Response['writeHead'];
}

function setsSessionCookie(res: Response): boolean {
  const header = res.getHeader('set-cookie');
  const set = Array.isArray(header) ? header : header === undefined ? [] : [String(header)];
  return set.some((line) => line.startsWith(`${SESSION_COOKIE}=`));
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
export async function startSession(
  req: Request,
  { user, sessionVersion }: SessionUser,
  signedInAt: number,
): Promise<void> {
  await promised('regenerate')(req);
  Object.assign(req.session, { userId: user.id, sessionVersion, signedInAt });
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
