import { CreateSessions1732300000000 } from './1732300000000-create-sessions';
import { CreateLoginFailures1732600000000 } from './1732600000000-create-login-failures';
import { AddSessionUser1732800000000 } from './1732800000000-add-session-user';
import { LoginThrottle1764000000000 } from './1764000000000-login-throttle';
import { IdempotencyKeys1764200000000 } from './1764200000000-idempotency-keys';
import { ApiTokens1764400000000 } from './1764400000000-api-tokens';
import { AuditEntries1764500000000 } from './1764500000000-audit-entries';
import { ApiTokenScopes1764613000000 } from './1764613000000-api-token-scopes';
import { AuditCountedRefusals1764614000000 } from './1764614000000-audit-counted-refusals';
import { SpentTotpChallenges1764810000000 } from './1764810000000-spent-totp-challenges';

/** Applied in order by the platform's DatabaseModule. */
export const migrations = [
  CreateSessions1732300000000,
  CreateLoginFailures1732600000000,
  AddSessionUser1732800000000,
  LoginThrottle1764000000000,
  IdempotencyKeys1764200000000,
  ApiTokens1764400000000,
  AuditEntries1764500000000,
  ApiTokenScopes1764613000000,
  AuditCountedRefusals1764614000000,
  SpentTotpChallenges1764810000000,
];
