import { type ApiRouteDef, apiRoutes, ErrorCode, totpMessages, type User } from '@cm/contracts';
import { AppError, CONFIG } from '@cm/platform';
import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { type Config } from '../config';
import { API_ROUTE } from '../http/api-route.key';
import { type SignedInRequest } from '../identity/current-user';

/** What an administrator who must enrol can still do: see who they are, enrol, and sign out. */
const enrolmentRoutes = new Set<ApiRouteDef>([
  apiRoutes.currentUser,
  apiRoutes.logout,
  apiRoutes.logoutNavigation,
  apiRoutes.totpStatus,
  apiRoutes.totpSetup,
  apiRoutes.totpEnable,
]);

/**
 * REQUIRE_ADMIN_TOTP applies to this user, who has not enrolled yet. Not to an external user:
 * their provider asks for the second factor, by its own rules.
 */
export const mustEnrol = (config: Config, user: Pick<User, 'role' | 'totpEnabled' | 'external'>) =>
  config.REQUIRE_ADMIN_TOTP && user.role === 'admin' && !user.totpEnabled && !user.external;

/**
 * With REQUIRE_ADMIN_TOTP, an administrator without two-factor sign-in is signed in but reaches
 * only the enrolment routes: every other one answers 403 AUTH.TOTP_ENROLMENT_REQUIRED, which the
 * web app answers with the Account screen. Runs after the AccessGuard, which sets the user.
 */
@Injectable()
export class TotpEnrolmentGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    if (!this.config.REQUIRE_ADMIN_TOTP || context.getType() !== 'http') return true;
    const { user } = context.switchToHttp().getRequest<SignedInRequest>();
    if (!user || !mustEnrol(this.config, user)) return true;
    const route = this.reflector.get<ApiRouteDef | undefined>(API_ROUTE, context.getHandler());
    if (route && enrolmentRoutes.has(route)) return true;
    throw new AppError(ErrorCode.TOTP_ENROLMENT_REQUIRED, totpMessages.enrolmentRequired);
  }
}
