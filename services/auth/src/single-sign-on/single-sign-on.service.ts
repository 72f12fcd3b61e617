import {
  ErrorCode,
  type OidcBeginResult,
  type OidcCompleteMessage,
  type SessionUser,
  type SignInOptions,
} from '@cm/contracts';
import { CONFIG } from '@cm/platform';
import { Inject, Injectable } from '@nestjs/common';
import { type Config } from '../config';
import { AccountEvents } from '../users/account-events';
import { UserChanges } from '../users/user-changes';
import { type UserFields, UserRepository } from '../users/user.repository';
import { toSessionUser } from '../users/users.service';
import { identityOf } from './identity';
import { OpenIdClient, refusal } from './openid-client';

/**
 * Single sign-on: the provider proves who signs in; this service decides which user of ours that
 * is. An external user is created at their first sign-in and brought up to date (name, email,
 * role by group) at every one after; a deactivated one is refused.
 */
@Injectable()
export class SingleSignOnService {
  constructor(
    @Inject(CONFIG) private readonly config: Config,
    private readonly client: OpenIdClient,
    private readonly users: UserRepository,
    private readonly changes: UserChanges,
    private readonly accounts: AccountEvents,
  ) {}

  options(): SignInOptions {
    return { singleSignOn: this.client.configured ? { displayName: this.config.OIDC_DISPLAY_NAME } : null };
  }

  begin(redirectUri: string): Promise<OidcBeginResult> {
    return this.client.begin(redirectUri);
  }

  async complete({ callbackUrl, transaction }: OidcCompleteMessage): Promise<SessionUser> {
    const { issuer, claims } = await this.client.complete(callbackUrl, transaction);
    const identity = identityOf(issuer, claims, this.config);
    const user = await this.users.signInExternal(
      identity,
      async (user, others): Promise<UserFields> => {
        if (user && user.isActive !== 1) throw refusal(ErrorCode.ACCOUNT_DEACTIVATED);
        // A local account of that name stays its owner's: signing in as it would take it over.
        if (await others.haveUsername(identity.username)) throw refusal(ErrorCode.SSO_ACCOUNT_CONFLICT);
        // An email another account has already is not copied: emails are unique here.
        const email =
          identity.email && !(await others.haveEmail(identity.email))
            ? identity.email
            : (user?.email ?? null);
        const { username, firstName, lastName, role } = identity;
        return { username, email, firstName, lastName, role, ...(user ? {} : { isActive: 1 as const }) };
      },
      // The provider's groups decide the role at each sign-in: a change of it is audited like any other.
      (before, after) => this.accounts.changed(before, after, { actorId: null }),
    );
    await this.changes.announce(user.id);
    return toSessionUser(user);
  }
}
