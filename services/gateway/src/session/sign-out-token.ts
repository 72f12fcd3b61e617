import { createHmac } from 'node:crypto';
import { apiRoutes, signOutToken } from '@cm/contracts';
import { CONFIG } from '@cm/platform';
import { Inject, Injectable } from '@nestjs/common';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { type Config } from '../config';
import { cookieValue, sameSecret } from '../security/cookies';

const RECENT_TOKENS = 10_000;

/**
 * What proves that a GET /api/logout came from a page of ours: a link, or a picture another user
 * stored, is fetched with the session cookie too, but cannot know this token. It is derived from
 * the session id with SESSION_SECRET, so nothing is stored, every session has its own, and every
 * replica computes the same.
 */
@Injectable()
export class SignOutTokens {
  /** Tokens of recent sessions: every GET checks the browser's, and an HMAC each was a measurable cost. */
  private readonly recent = new Map<string, string>();

  constructor(@Inject(CONFIG) private readonly config: Config) {}

  private tokenOf(sessionId: string): string {
    let token = this.recent.get(sessionId);
    if (token === undefined) {
      token = createHmac('sha256', this.config.SESSION_SECRET)
        .update(`sign-out:${sessionId}`)
        .digest('base64url');
      if (this.recent.size >= RECENT_TOKENS) this.recent.clear();
      this.recent.set(sessionId, token);
    }
    return token;
  }

  /**
   * Hands a signed-in browser its token in a cookie the web app reads (so not HttpOnly), when it
   * lacks it. Every screen GETs its data, so GETs suffice; sign-out itself only clears it.
   */
  readonly issue: RequestHandler = (req: Request, res: Response, next: NextFunction) => {
    const signingOut = `${req.baseUrl}${req.path}` === apiRoutes.logoutNavigation.path;
    if (req.method === 'GET' && !signingOut && req.session?.userId) {
      const token = this.tokenOf(req.sessionID);
      if (cookieValue(req.headers.cookie, signOutToken.cookie) !== token) {
        res.cookie(signOutToken.cookie, token, { path: '/', sameSite: 'strict', secure: req.secure });
      }
    }
    next();
  };

  /** Whether the request carries the token of its own session (compared in constant time). */
  proves(req: Request): boolean {
    const presented = req.query[signOutToken.query];
    if (!req.session?.userId || typeof presented !== 'string') return false;
    return sameSecret(presented, this.tokenOf(req.sessionID));
  }

  clear(res: Response): void {
    res.clearCookie(signOutToken.cookie, { path: '/', sameSite: 'strict' });
  }
}
