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
    expect(passwordProblem('qwerty kettle drum')).toBeUndefined();
  });

  it('refuses long passwords that are easy to guess, and says what to do instead', () => {
    for (const password of [
      'aaaaaaaaaaaa',
      'password1234',
      '123456789012',
      ' '.repeat(12),
      'qwerty123457x',
    ]) {
      const problem = passwordProblem(password);
      expect(problem).toContain(authMessages.weakPassword);
    }
    expect(passwordProblem('aaaaaaaaaaaa')).toBe(
      `${authMessages.weakPassword} Repeated characters like "aaa" are easy to guess. ` +
        'Add more words that are less common. Avoid repeated words and characters.',
    );
  });

  it("counts the user's own name as a guessable word", () => {
    expect(passwordProblem('margaret2026!')).toBeUndefined();
    expect(passwordProblem('margaret2026!', ['margaret', null])).toContain(authMessages.weakPassword);
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
