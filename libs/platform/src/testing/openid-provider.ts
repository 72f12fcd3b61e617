import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo } from 'node:net';
import type { Configuration, KoaContextWithOIDC } from 'oidc-provider' with { 'resolution-mode': 'import' };

type OidcProviderModule = typeof import('oidc-provider', { with: { 'resolution-mode': 'import' } });

/** A person the provider knows: the login typed on its form, and what it says of them. */
export interface ProviderAccount {
  login: string;
  /** The subject: stays when the person's username or groups change. */
  sub: string;
  claims: Record<string, unknown>;
}

/** The one application the provider serves. */
export interface ProviderClient {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

async function formBody(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString());
}

/**
 * A real, certified OpenID provider (node-oidc-provider) on loopback, for tests of single sign-on:
 * its own sign-in page asks for a login only (the provider's people are the test's accounts), and
 * consent is taken as given, as a campus provider does for its own applications.
 */
export class TestOpenIdProvider {
  private readonly accounts = new Map<string, ProviderAccount>();

  private handle: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;

  private constructor(
    private readonly server: Server,
    readonly issuer: string,
  ) {
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      if (!this.handle) {
        res.statusCode = 503;
        return void res.end('The provider has no application yet (serve)');
      }
      this.handle(req, res);
    });
  }

  /**
   * Listens on loopback, so that the issuer URL is known before the application is (its redirect
   * URI names a port not chosen yet); `serve` then starts the provider. `host` is the loopback name
   * to be reached at: `localhost` keeps the provider's cookies apart from the app's 127.0.0.1.
   */
  static async listen(host = 'localhost'): Promise<TestOpenIdProvider> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return new TestOpenIdProvider(server, `http://${host}:${(server.address() as AddressInfo).port}`);
  }

  async serve(client: ProviderClient): Promise<void> {
    const { default: Provider } = (await import('oidc-provider')) as OidcProviderModule;
    const provider = new Provider(this.issuer, this.configuration(client));
    const callback = provider.callback();
    this.handle = (req, res) => {
      const interaction = /^\/interaction\/([^/?]+)(\/login)?/.exec(req.url ?? '');
      if (!interaction) return void callback(req, res);
      const [, uid, login] = interaction;
      if (!login) return this.signInPage(res, uid);
      this.finishSignIn(provider, req, res).catch((error: unknown) => {
        res.statusCode = 500;
        res.end(String(error));
      });
    };
  }

  private configuration(client: ProviderClient): Configuration {
    const bySub = (sub: string) => [...this.accounts.values()].find((a) => a.sub === sub);
    return {
      clients: [
        {
          client_id: client.clientId,
          client_secret: client.clientSecret,
          redirect_uris: client.redirectUris,
          response_types: ['code'],
          grant_types: ['authorization_code'],
          token_endpoint_auth_method: 'client_secret_post',
        },
      ],
      claims: {
        openid: ['sub'],
        profile: ['preferred_username', 'given_name', 'family_name', 'name'],
        email: ['email', 'email_verified'],
        groups: ['groups'],
      },
      scopes: ['openid', 'profile', 'email', 'groups'],
      cookies: { keys: [randomBytes(32).toString('base64url')] },
      features: { devInteractions: { enabled: false } },
      interactions: { url: (_ctx: KoaContextWithOIDC, interaction) => `/interaction/${interaction.uid}` },
      findAccount: (_ctx: KoaContextWithOIDC, sub: string) => {
        const account = bySub(sub);
        return account && { accountId: sub, claims: () => ({ ...account.claims, sub }) };
      },
      // The application is the campus's own: no consent page.
      loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
        const grant = new ctx.oidc.provider.Grant({
          clientId: ctx.oidc.client!.clientId,
          accountId: ctx.oidc.session!.accountId!,
        });
        grant.addOIDCScope('openid profile email groups');
        await grant.save();
        return grant;
      },
    };
  }

  private signInPage(res: ServerResponse, uid: string): void {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(
      `<!doctype html><title>Campus sign-in</title><h1>Campus sign-in</h1>
       <form method="post" action="/interaction/${escapeHtml(uid)}/login">
         <label>Login <input name="login" autocomplete="username"></label>
         <button type="submit">Continue</button>
       </form>`,
    );
  }

  /** A login the provider knows signs in; any other is refused as the person declining would be. */
  private async finishSignIn(
    provider: InstanceType<OidcProviderModule['default']>,
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<void> {
    const account = this.accounts.get((await formBody(req)).get('login') ?? '');
    const result = account
      ? { login: { accountId: account.sub } }
      : { error: 'access_denied', error_description: 'No such person' };
    await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
  }

  /** Adds (or replaces) a person; their claims are read again at each sign-in. */
  account(login: string, claims: Record<string, unknown>, sub = `sub-${login}`): ProviderAccount {
    const account = { login, sub, claims: { preferred_username: login, ...claims } };
    this.accounts.set(login, account);
    return account;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
