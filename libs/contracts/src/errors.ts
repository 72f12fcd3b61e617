import { z } from 'zod';

export { ErrorCode } from './error-codes';

export const fieldErrorSchema = z.object({ path: z.string(), message: z.string() });
export type FieldError = z.infer<typeof fieldErrorSchema>;

/** Every error response body, from every route. */
export const errorBodySchema = z.object({
  code: z.string(),
  message: z.string(),
  errors: z.array(fieldErrorSchema).optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** Turns a zod failure into field messages, and one sentence made of them for a toast. */
export function describeZodError(error: z.ZodError): { message: string; errors: FieldError[] } {
  const errors = error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
  const unique = [...new Set(errors.map((e) => e.message))];
  return { message: unique.join('. '), errors };
}
