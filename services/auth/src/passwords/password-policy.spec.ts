import { authMessages, ErrorCode } from '@cm/contracts';
import { assertAllowedPassword, passwordProblem } from './password-policy';

describe('password policy', () => {
  it('refuses passwords shorter than 12 characters', () => {
    expect(passwordProblem('elevenchars')).toBe(authMessages.passwordTooShort);
    expect(passwordProblem('twelve chars')).toBeUndefined();
  });

  it('refuses the common passwords of 12 characters or more, whatever their case', () => {
    for (const password of ['qwerty123456', '1qaz2wsx3edc', 'QwertyQwerty', 'ＱＷＥＲＴＹ１２３４５６'])
      expect(passwordProblem(password)).toBe(authMessages.commonPassword);
    expect(passwordProblem('qwerty123457x')).toBeUndefined();
  });

  it('refuses with a validation error naming the password field', () => {
    expect(() => assertAllowedPassword('123qweasdzxc')).toThrow(
      expect.objectContaining({
        code: ErrorCode.VALIDATION_FAILED,
        message: authMessages.commonPassword,
        errors: [{ path: 'password', message: authMessages.commonPassword }],
      }),
    );
  });
});
