import {
  apiRoutes,
  ErrorCode,
  isSingleSignOnError,
  messages,
  returnPath,
  type RouteQuery,
  SIGN_IN_ERROR_PARAM,
  type SignInOptions,
  type SingleSignOnError,
} from '@cm/contracts';
import { CONFIG, RpcClient } from '@cm/platform';
import { Controller, Inject, Logger, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AuditLog } from '../audit/audit-log';
import { type Config } from '../config';
import { ApiRoute } from '../http/api-route.decorator';
import { publicOriginOf } from '../security/same-origin';
import { SessionStore } from '../session/session-store';
import { startSession } from '../session/session.middleware';
import { type SignedInRequest } from '../identity/current-user';
import { OidcTransactions } from './oidc-transactions';

const CALLBACK_PATH = apiRoutes.oidcCallback.path;

const logger = new Logger('SingleSignOn');

/**
 * The code of a refusal as the sign-in screen shows it: any other failure (auth not answering in
 * time, say) is a failed sign-on, and only the log can say which it was.
 */
const refusalCode = (error: unknown): SingleSignOnError => {
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  if (isSingleSignOnError(code)) return code;
  logger.warn(`Single sign-on failed: ${code ?? 'no code'}: ${message ?? String(error)}`);
  return ErrorCode.SSO_FAILED;
};

/** `path` with the refusal's code added, for the sign-in screen to show. */
function withRefusal(path: string, code: SingleSignOnError): string {
  const url = new URL(path, 'http://app.invalid');
  url.searchParams.set(SIGN_IN_ERROR_PARAM, code);
  return url.pathname + url.search + url.hash;
}

/**
 * Single sign-on (OpenID Connect): the browser is sent to the provider and comes back to the
 * callback, which auth completes. Both are pages, not calls, so every outcome is a redirect: to
 * the provider, to where the sign-in began, or to the sign-in screen with the refusal's code.
 */
@Controller()
export class SingleSignOnController {
  constructor(
    @Inject(CONFIG) private readonly config: Config,
    private readonly rpc: RpcClient,
    private readonly transactions: OidcTransactions,
    private readonly sessions: SessionStore,
    private readonly audit: AuditLog,
  ) {}

  @ApiRoute(apiRoutes.signInOptions)
  options(): Promise<SignInOptions> {
    return this.rpc.send(messages.auth.signInOptions, {});
  }

  @ApiRoute(apiRoutes.oidcStart)
  async start(
    @Query() { returnTo: requested }: RouteQuery<typeof apiRoutes.oidcStart>,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const returnTo = returnPath(requested ?? '/');
    try {
      const redirectUri = `${publicOriginOf(this.config, req)}${CALLBACK_PATH}`;
      const { authorizationUrl, transaction } = await this.rpc.send(messages.auth.oidcBegin, { redirectUri });
      this.transactions.keep(req, res, transaction, returnTo);
      res.redirect(303, authorizationUrl);
    } catch (error) {
      res.redirect(303, withRefusal(returnTo, refusalCode(error)));
    }
  }

  @ApiRoute(apiRoutes.oidcCallback)
  async callback(@Req() req: SignedInRequest, @Res() res: Response): Promise<void> {
    const kept = this.transactions.take(req, res);
    if (!kept) return this.refuse(req, res, returnPath('/'), ErrorCode.SSO_EXPIRED);
    const at = req.originalUrl.indexOf('?');
    try {
      const signedIn = await this.rpc.send(messages.auth.oidcComplete, {
        // The URL the provider was told to send the browser to, with what it sent.
        callbackUrl: kept.transaction.redirectUri + (at >= 0 ? req.originalUrl.slice(at) : ''),
        transaction: kept.transaction,
      });
      await startSession(req, res, signedIn, this.sessions);
      await this.audit.signedIn(req, signedIn.user, { method: 'single sign-on' });
      res.redirect(303, kept.returnTo);
    } catch (error) {
      await this.refuse(req, res, kept.returnTo, refusalCode(error));
    }
  }

  private async refuse(
    req: Request,
    res: Response,
    returnTo: string,
    code: SingleSignOnError,
  ): Promise<void> {
    await this.audit.signInRefused(req, { username: null, method: 'single sign-on', reason: code });
    res.redirect(303, withRefusal(returnTo, code));
  }
}
