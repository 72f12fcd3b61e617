import { authMessages, ErrorCode, passwordMinLength } from '@cm/contracts';
import { AppError } from '@cm/platform';
import { type FeedbackType, ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import * as english from '@zxcvbn-ts/language-en';
import { commonPasswordsText } from './common-passwords';

/**
 * zxcvbn's score 3 is "safely unguessable" for an online attack (about 10^8 guesses and more),
 * which the sign-in throttle holds guessers to; below it go repeats, sequences, keyboard walks
 * and a word or two with digits, whatever the length.
 */
export const minimumPasswordScore = 3;

/** Compared as a person would type them: compatibility forms folded, case ignored. */
const fold = (password: string) => password.normalize('NFKC').toLowerCase();

let common10k: Set<string> | undefined;
const commonPasswords = () =>
  (common10k ??= new Set(commonPasswordsText.split('\n').filter(Boolean).map(fold)));

// Built on first use: the dictionaries take a noticeable moment and memory to load.
let estimator: ZxcvbnFactory | undefined;
const strength = () =>
  (estimator ??= new ZxcvbnFactory({
    // The estimate runs on the event loop: with the library's defaults (256 characters, 100 l33t
    // substitutions) one crafted password takes seconds. Its first 64 characters decide; a longer
    // password that is weak there is weak.
    maxLength: 64,
    l33tMaxSubstitutions: 10,
    translations: {
      ...english.translations,
      warnings: { ...english.translations.warnings, userInputs: authMessages.passwordHasPersonalData },
    },
    graphs: common.adjacencyGraphs,
    dictionary: { ...common.dictionary, ...english.dictionary },
  }));

/** The estimator's own warning and suggestions, after our sentence of what to do. */
function weakPasswordMessage({ warning, suggestions }: FeedbackType): string {
  return [authMessages.weakPassword, warning, ...suggestions]
    .filter((part): part is string => Boolean(part))
    .map((part) => (/[.!?]$/.test(part) ? part : `${part}.`))
    .join(' ');
}

/**
 * Why a new local password is refused, or undefined when it is allowed. Only new and changed
 * passwords are held to it: sign-in never is, so nobody is locked out by the rule. `userInputs`
 * (the username, name, email) count as guessable words in it.
 */
export function passwordProblem(
  password: string,
  userInputs: (string | null | undefined)[] = [],
): string | undefined {
  if (password.length < passwordMinLength) return authMessages.passwordTooShort;
  if (commonPasswords().has(fold(password))) return authMessages.commonPassword;
  const words = userInputs.filter((input): input is string => Boolean(input));
  const { score, feedback } = strength().check(password, words);
  if (score < minimumPasswordScore) return weakPasswordMessage(feedback);
  return undefined;
}

/** Throws the refusal a form shows beside the password field (`field`). */
export function assertAllowedPassword(
  password: string,
  userInputs: (string | null | undefined)[] = [],
  field = 'password',
): void {
  const problem = passwordProblem(password, userInputs);
  if (problem) throw new AppError(ErrorCode.VALIDATION_FAILED, problem, [{ path: field, message: problem }]);
}
