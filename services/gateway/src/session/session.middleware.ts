import { createHmac } from 'node:crypto';
import { ErrorCode, type SessionUser } from '@cm/contracts';
import { AppError } from '@cm/platform';
import { Logger } from '@nestjs/common';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { cookieValue, sameSecret } from '../security/cookies';
import { type SessionData, type SessionStore } from './session-store';

export const SESSION_COOKIE = 'cm.sid';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** The signed-in session's fields; empty without one (only under /api and /objects). */
      session: Partial<SessionData>;
      /** The session's id; empty without one. */
      sessionID: string;
    }
  }
}

/** What the middleware knows of a request's session beyond its fields. */
interface SessionState {
  store: SessionStore;
  /** The expiry the cookie carries when it is sent. */
  expire: number;
}

const STATE = Symbol('session');
type WithState = Request & { [STATE]?: SessionState };

const logger = new Logger('Sessions');
const unavailable = 'Sessions cannot be read just now. Try again shortly.';

/** `s:` + id + `.` + HMAC-SHA256 in base64 without padding: the signed value cookie-signature makes. */
const sign = (sid: string, secret: string) =>
  `s:${sid}.${createHmac('sha256', secret).update(sid).digest('base64').replace(/=+$/, '')}`;

const VERIFIED_KEPT = 10_000;

/**
 * The session id a cookie value carries, when its signature is ours. `verified` keeps values
 * already checked: an HMAC per request was a twentieth of the gateway's CPU.
 */
function unsign(raw: string | undefined, secret: string, verified: Map<string, string>): string | undefined {
  if (!raw) return undefined;
  const known = verified.get(raw);
  if (known !== undefined) return known;
  const sid = checkSignature(raw, secret);
  if (sid !== undefined) {
    if (verified.size >= VERIFIED_KEPT) verified.clear();
    verified.set(raw, sid);
  }
  return sid;
}

function checkSignature(raw: string, secret: string): string | undefined {
  let value: string;
  try {
    value = decodeURIComponent(raw);
  } catch {
    return undefined;
  }
  const dot = value.lastIndexOf('.');
  if (!value.startsWith('s:') || dot < 3) return undefined;
  const sid = value.slice(2, dot);
  return sameSecret(value, sign(sid, secret)) ? sid : undefined;
}

/**
 * The session cookie: HttpOnly, SameSite=Lax, Secure whenever the request came over TLS (as
 * Express sees it, so X-Forwarded-Proto counts behind a trusted proxy). Sessions are created
 * only at sign-in and last SESSION_MAX_AGE_HOURS after the last request, and never longer than
 * SESSION_ABSOLUTE_HOURS after sign-in. The cookie is sent at sign-in and whenever the row's
 * expiry is written again (about once a minute per busy session), not on every answer.
 */
export function sessionMiddleware(sessions: SessionStore): RequestHandler {
  const answerUnavailable = (res: Response) =>
    res.status(503).json({ code: ErrorCode.SERVICE_UNAVAILABLE, message: unavailable });

  const verified = new Map<string, string>();
  return (req: Request, res: Response, next: NextFunction) => {
    req.session = {};
    req.sessionID = '';
    const sid = unsign(cookieValue(req.headers.cookie, SESSION_COOKIE), sessions.secret, verified);
    if (!sid) return next();
    sessions.load(sid).then(
      async (row) => {
        const { userId, sessionVersion, signedInAt } = row?.data ?? {};
        if (!row || !userId) return next();
        // A session from before sign-in times were kept counts as too old. `now()` is the clock of
        // sign-in times (a test moves it); expiries are the row's, on the real clock.
        const left = (signedInAt ?? 0) + sessions.absoluteMs - sessions.now();
        if (left <= 0) {
          // Refused at every request anyway: a failed delete leaves it to the pruning.
          await sessions.destroy(sid).catch(() => undefined);
          return next();
        }
        req.session = { userId, sessionVersion, signedInAt };
        req.sessionID = sid;
        // Expiring at the absolute end too, the cookie and the row go then even without a request.
        const expire = Date.now() + Math.min(sessions.idleMs, left);
        (req as WithState)[STATE] = { store: sessions, expire };
        if (sessions.renewalDue(row.expire, expire)) {
          // Before the answer, so that the session's next request reads the new expiry; a failed
          // write only leaves the session to be renewed by a later request.
          const renewed = await sessions.renew(sid, expire).then(
            () => true,
            (error: unknown) => {
              logger.warn(`Session expiry not renewed: ${String(error)}`);
              return false;
            },
          );
          if (renewed) sendCookieUnlessSet(req, res);
        }
        next();
      },
      () => answerUnavailable(res),
    );
  };
}

/** Sends the renewed cookie with the answer, unless the answer sets or clears it itself (sign-out). */
function sendCookieUnlessSet(req: Request, res: Response): void {
  const writeHead = res.writeHead;
  res.writeHead = function (this: Response, ...args: Parameters<Response['writeHead']>) {
    const state = (req as WithState)[STATE];
    if (state && req.sessionID && !setsSessionCookie(res)) setSessionCookie(req, res, state);
    return writeHead.apply(this, args);
  } as Response['writeHead'];
}

function setSessionCookie(req: Request, res: Response, state: SessionState): void {
  res.cookie(SESSION_COOKIE, sign(req.sessionID, state.store.secret), {
    expires: new Date(state.expire),
    httpOnly: true,
    path: '/',
    sameSite: 'lax',
    secure: req.secure,
  });
}

function setsSessionCookie(res: Response): boolean {
  const header = res.getHeader('set-cookie');
  const set = Array.isArray(header) ? header : header === undefined ? [] : [String(header)];
  return set.some((line) => line.startsWith(`${SESSION_COOKIE}=`));
}

const failed = (error: unknown): never => {
  logger.warn(`Session store failed: ${String(error)}`);
  throw new AppError(ErrorCode.SERVICE_UNAVAILABLE, unavailable);
};

/**
 * A fresh session id at sign-in, so that an id planted before sign-in is worth nothing after it:
 * the request's own session, if any, ends.
 */
export async function startSession(
  req: Request,
  res: Response,
  { user, sessionVersion }: SessionUser,
  sessions: SessionStore,
): Promise<void> {
  const signedInAt = sessions.now();
  if (req.sessionID) await sessions.destroy(req.sessionID).catch(failed);
  const data = { userId: user.id, sessionVersion, signedInAt };
  const expire = Date.now() + Math.min(sessions.idleMs, sessions.absoluteMs);
  const sid = await sessions.create(data, expire).catch(failed);
  req.session = data;
  req.sessionID = sid;
  const state = { store: sessions, expire };
  (req as WithState)[STATE] = state;
  setSessionCookie(req, res, state);
}

/** Keeps the request's own session valid after its user's session version went up. */
export async function renewSessionVersion(req: Request, sessionVersion: number): Promise<void> {
  const state = (req as WithState)[STATE];
  req.session.sessionVersion = sessionVersion;
  if (!state || !req.sessionID) return;
  await state.store.update(req.sessionID, req.session as SessionData, state.expire).catch(failed);
}

export async function endSession(req: Request, res: Response): Promise<void> {
  const state = (req as WithState)[STATE];
  if (state && req.sessionID) await state.store.destroy(req.sessionID).catch(failed);
  req.session = {};
  req.sessionID = '';
  res.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax' });
}
