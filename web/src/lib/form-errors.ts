import { type z } from 'zod';

/** The first message of each top-level field of a failed schema check, for the form to show. */
export function fieldErrors<K extends string>(error: z.ZodError): Partial<Record<K, string>> {
  const errors: Partial<Record<K, string>> = {};
  for (const issue of error.issues) errors[String(issue.path[0]) as K] ??= issue.message;
  return errors;
}
