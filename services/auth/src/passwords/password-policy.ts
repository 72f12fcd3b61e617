import { authMessages, ErrorCode, passwordMinLength } from '@cm/contracts';
import { AppError } from '@cm/platform';
import { commonPasswordsText } from './common-passwords';

/** Compared as a person would type them: compatibility forms folded, case ignored. */
const fold = (password: string) => password.normalize('NFKC').toLowerCase();

let common: Set<string> | undefined;
const commonPasswords = () => (common ??= new Set(commonPasswordsText.split('\n').filter(Boolean).map(fold)));

/**
 * Why a new local password is refused, or undefined when it is allowed. Only new and changed
 * passwords are held to it: sign-in never is, so nobody is locked out by the rule.
 */
export function passwordProblem(password: string): string | undefined {
  if (password.length < passwordMinLength) return authMessages.passwordTooShort;
  if (commonPasswords().has(fold(password))) return authMessages.commonPassword;
  return undefined;
}

/** Throws the refusal a form shows beside the password field. */
export function assertAllowedPassword(password: string): void {
  const problem = passwordProblem(password);
  if (problem)
    throw new AppError(ErrorCode.VALIDATION_FAILED, problem, [{ path: 'password', message: problem }]);
}
