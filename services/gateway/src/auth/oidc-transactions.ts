import { apiRoutes, type OidcTransaction, oidcTransactionSchema } from '@cm/contracts';
import { CONFIG, openSecret, sealSecret } from '@cm/platform';
import { Inject, Injectable } from '@nestjs/common';
import type { CookieOptions, Request, Response } from 'express';
import { z } from 'zod';
import { type Config } from '../config';
import { cookieValue, keyFor } from '../security/cookies';

export const OIDC_COOKIE = 'cm.oidc';
/** How long a person may take at the provider's sign-in page. */
export const OIDC_TRANSACTION_TTL_MS = 10 * 60_000;
/** The additional data of the sealed cookie: nothing else sealed with the key opens as one. */
const PURPOSE = 'cm.oidc transaction';

/** Set and cleared alike: sent only to the callback, and never readable by a script. */
const cookieOptions = (req: Request): CookieOptions => ({
  httpOnly: true,
  sameSite: 'lax',
  secure: req.secure,
  path: apiRoutes.oidcCallback.path,
});

const keptSchema = z.object({
  transaction: oidcTransactionSchema,
  returnTo: z.string(),
  expires: z.number(),
});
export type KeptSignIn = z.infer<typeof keptSchema>;

/**
 * A single sign-on under way, kept in the browser that started it: sealed (AES-256-GCM under a
 * key of its own, drawn from SESSION_SECRET), so that the browser can neither read the PKCE
 * verifier nor change the state or nonce. SameSite=Lax: the provider sends the browser back with
 * a top-level GET from its own site, which a Strict cookie would not go with.
 */
@Injectable()
export class OidcTransactions {
  private readonly key: Buffer;

  constructor(@Inject(CONFIG) config: Config) {
    this.key = keyFor(config.SESSION_SECRET, PURPOSE);
  }

  keep(req: Request, res: Response, transaction: OidcTransaction, returnTo: string): void {
    const kept: KeptSignIn = { transaction, returnTo, expires: Date.now() + OIDC_TRANSACTION_TTL_MS };
    res.cookie(OIDC_COOKIE, sealSecret(this.key, JSON.stringify(kept), PURPOSE), {
      ...cookieOptions(req),
      maxAge: OIDC_TRANSACTION_TTL_MS,
    });
  }

  /** The sign-in this browser started, used up: a callback opened twice finds none the second time. */
  take(req: Request, res: Response): KeptSignIn | null {
    const sealed = cookieValue(req.headers.cookie, OIDC_COOKIE);
    res.clearCookie(OIDC_COOKIE, cookieOptions(req));
    if (!sealed) return null;
    try {
      const kept = keptSchema.parse(JSON.parse(openSecret(this.key, decodeURIComponent(sealed), PURPOSE)));
      return kept.expires > Date.now() ? kept : null;
    } catch {
      return null;
    }
  }
}
