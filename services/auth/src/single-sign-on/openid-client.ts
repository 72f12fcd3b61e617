import {
  ErrorCode,
  type OidcBeginResult,
  type OidcTransaction,
  type SingleSignOnError,
  singleSignOnMessages,
} from '@cm/contracts';
import { AppError, CONFIG } from '@cm/platform';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Configuration } from 'openid-client' with { 'resolution-mode': 'import' };
import { type Config } from '../config';

/** openid-client is an ES module; this service is CommonJS, so it is loaded once, on first use. */
type OpenIdClientModule = typeof import('openid-client', { with: { 'resolution-mode': 'import' } });
let loaded: Promise<OpenIdClientModule> | undefined;
const openIdClient = () => (loaded ??= import('openid-client'));

export const refusal = (code: SingleSignOnError) => new AppError(code, singleSignOnMessages[code]);

/** What the provider said of the person: the ID token's claims over UserInfo's. */
export interface ProviderAnswer {
  issuer: string;
  claims: Record<string, unknown>;
}

const networkCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
]);

/**
 * Whether an error, or one it was caused by, is the provider not answering in time (or at all).
 * Read by name and code, not class: fetch's errors may come from another realm than this code's.
 */
function unreachable(error: unknown): boolean {
  let e = error as { name?: unknown; message?: unknown; code?: unknown; cause?: unknown } | null | undefined;
  for (let depth = 0; e && typeof e === 'object' && depth < 6; e = e.cause as typeof e, depth++) {
    if (e.name === 'TypeError' && e.message === 'fetch failed') return true;
    if (e.name === 'TimeoutError' || e.code === 'OAUTH_TIMEOUT' || e.code === 'OAUTH_ABORT') return true;
    if (typeof e.code === 'string' && (networkCodes.has(e.code) || e.code.startsWith('UND_ERR_CONNECT')))
      return true;
  }
  return false;
}

/**
 * The causes under an error, for the log: openid-client's own message names only the kind ("invalid
 * response encountered", "something went wrong"); its causes name the check or the failure.
 */
function causesOf(error: unknown): string {
  const causes: string[] = [];
  let e = (error as { cause?: unknown } | null)?.cause as {
    name?: string;
    message?: string;
    cause?: unknown;
  };
  for (let depth = 0; e && typeof e === 'object' && depth < 6; e = e.cause as typeof e, depth++)
    if (e.message) causes.push(`${e.name ?? 'Error'}: ${e.message}`);
  return causes.length ? ` (caused by ${causes.join(', caused by ')})` : '';
}

/**
 * The OpenID Connect relying party (openid-client): authorization code flow with PKCE, state and
 * nonce. The provider's metadata is discovered on first use and kept; a failed discovery is tried
 * again by the next sign-in, so a provider that was down at start-up does not need a restart.
 */
@Injectable()
export class OpenIdClient {
  private readonly logger = new Logger(OpenIdClient.name);
  private configuration: Promise<Configuration> | undefined;

  constructor(@Inject(CONFIG) private readonly config: Config) {}

  get configured(): boolean {
    return this.config.OIDC_ISSUER_URL !== undefined;
  }

  async begin(redirectUri: string): Promise<OidcBeginResult> {
    const client = await openIdClient();
    const configuration = await this.discovered();
    const transaction: OidcTransaction = {
      state: client.randomState(),
      nonce: client.randomNonce(),
      codeVerifier: client.randomPKCECodeVerifier(),
      redirectUri,
    };
    const url = client.buildAuthorizationUrl(configuration, {
      redirect_uri: redirectUri,
      scope: this.config.OIDC_SCOPES,
      response_type: 'code',
      code_challenge: await client.calculatePKCECodeChallenge(transaction.codeVerifier),
      code_challenge_method: 'S256',
      state: transaction.state,
      nonce: transaction.nonce,
    });
    return { authorizationUrl: url.href, transaction };
  }

  /** Redeems the code of the provider's answer (`callbackUrl`) and checks the ID token. */
  async complete(callbackUrl: string, transaction: OidcTransaction): Promise<ProviderAnswer> {
    const client = await openIdClient();
    const configuration = await this.discovered();
    const answer = new URL(callbackUrl);
    // The answer must come back where this sign-in asked it to: the code was issued for that URL.
    if (answer.origin + answer.pathname !== transaction.redirectUri) throw refusal(ErrorCode.SSO_FAILED);
    try {
      const tokens = await client.authorizationCodeGrant(configuration, answer, {
        pkceCodeVerifier: transaction.codeVerifier,
        expectedState: transaction.state,
        expectedNonce: transaction.nonce,
        idTokenExpected: true,
      });
      const idClaims = tokens.claims()!;
      const userInfo = await this.userInfo(configuration, tokens.access_token, idClaims.sub);
      return { issuer: configuration.serverMetadata().issuer, claims: { ...userInfo, ...idClaims } };
    } catch (error) {
      throw this.refusalOf(error);
    }
  }

  /** Profile and groups claims that some providers send only here; none when it has no such endpoint. */
  private async userInfo(configuration: Configuration, accessToken: string, subject: string) {
    if (!configuration.serverMetadata().userinfo_endpoint) return {};
    const client = await openIdClient();
    try {
      return await client.fetchUserInfo(configuration, accessToken, subject);
    } catch (error) {
      // The ID token alone may say enough; identityOf refuses it when it does not.
      this.logger.warn(`UserInfo not read, the ID token's claims alone are used: ${String(error)}`);
      return {};
    }
  }

  private refusalOf(error: unknown): AppError {
    if (error instanceof AppError) return error;
    if (unreachable(error)) return refusal(ErrorCode.SSO_PROVIDER_UNAVAILABLE);
    const { name, error: reason, message } = error as { name?: string; error?: string; message?: string };
    if (name === 'AuthorizationResponseError' && reason === 'access_denied')
      return refusal(ErrorCode.SSO_CANCELLED);
    this.logger.warn(`Single sign-on refused: ${reason ?? message ?? String(error)}${causesOf(error)}`);
    return refusal(ErrorCode.SSO_FAILED);
  }

  private discovered(): Promise<Configuration> {
    if (!this.configured) return Promise.reject(refusal(ErrorCode.SSO_NOT_CONFIGURED));
    this.configuration ??= this.discover().catch((error: unknown) => {
      this.configuration = undefined;
      this.logger.error(
        `OpenID provider ${this.config.OIDC_ISSUER_URL} not discovered: ${String(error)}${causesOf(error)}`,
      );
      throw unreachable(error) ? refusal(ErrorCode.SSO_PROVIDER_UNAVAILABLE) : refusal(ErrorCode.SSO_FAILED);
    });
    return this.configuration;
  }

  private async discover(): Promise<Configuration> {
    const client = await openIdClient();
    const issuer = new URL(this.config.OIDC_ISSUER_URL!);
    const secret = this.config.OIDC_CLIENT_SECRET;
    return client.discovery(
      issuer,
      this.config.OIDC_CLIENT_ID!,
      undefined,
      secret ? client.ClientSecretPost(secret) : client.None(),
      {
        timeout: this.config.OIDC_TIMEOUT_MS / 1000,
        // Only a loopback issuer may be http (the configuration refuses any other).
        execute: issuer.protocol === 'http:' ? [client.allowInsecureRequests] : [],
      },
    );
  }
}
