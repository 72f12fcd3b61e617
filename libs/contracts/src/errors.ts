import { z } from 'zod';

/**
 * Stable error codes. Services raise them; only the gateway maps them to HTTP statuses
 * (see `httpStatusByCode` in @cm/platform), and clients may branch on them.
 */
export const ErrorCode = {
  VALIDATION_FAILED: 'COMMON.VALIDATION_FAILED',
  NOT_FOUND: 'COMMON.NOT_FOUND',
  ROUTE_NOT_FOUND: 'COMMON.ROUTE_NOT_FOUND',
  CONFLICT: 'COMMON.CONFLICT',
  PAYLOAD_TOO_LARGE: 'COMMON.PAYLOAD_TOO_LARGE',
  LENGTH_REQUIRED: 'COMMON.LENGTH_REQUIRED',
  METHOD_NOT_ALLOWED: 'COMMON.METHOD_NOT_ALLOWED',
  UNSUPPORTED_MEDIA_TYPE: 'COMMON.UNSUPPORTED_MEDIA_TYPE',
  SERVICE_UNAVAILABLE: 'COMMON.SERVICE_UNAVAILABLE',
  SERVICE_TIMEOUT: 'COMMON.SERVICE_TIMEOUT',
  INTERNAL: 'COMMON.INTERNAL',
  IDEMPOTENCY_KEY_REUSED: 'COMMON.IDEMPOTENCY_KEY_REUSED',
  IDEMPOTENCY_KEY_IN_USE: 'COMMON.IDEMPOTENCY_KEY_IN_USE',

  UNAUTHENTICATED: 'AUTH.UNAUTHENTICATED',
  FORBIDDEN: 'AUTH.FORBIDDEN',
  CROSS_SITE_REQUEST: 'AUTH.CROSS_SITE_REQUEST',
  INVALID_CREDENTIALS: 'AUTH.INVALID_CREDENTIALS',
  TOO_MANY_ATTEMPTS: 'AUTH.TOO_MANY_ATTEMPTS',
  PASSWORD_CHECKS_BUSY: 'AUTH.PASSWORD_CHECKS_BUSY',
  USER_NOT_FOUND: 'AUTH.USER_NOT_FOUND',
  USERNAME_TAKEN: 'AUTH.USERNAME_TAKEN',
  EMAIL_TAKEN: 'AUTH.EMAIL_TAKEN',
  LAST_ADMIN: 'AUTH.LAST_ADMIN',
  SELF_CHANGE: 'AUTH.SELF_CHANGE',

  BUILDING_NOT_FOUND: 'INVENTORY.BUILDING_NOT_FOUND',
  ROOM_NOT_FOUND: 'INVENTORY.ROOM_NOT_FOUND',
  EQUIPMENT_NOT_FOUND: 'INVENTORY.EQUIPMENT_NOT_FOUND',
  ADDRESS_LIMIT_REACHED: 'INVENTORY.ADDRESS_LIMIT_REACHED',
  MAINTENANCE_WINDOW_NOT_FOUND: 'INVENTORY.MAINTENANCE_WINDOW_NOT_FOUND',
  CHANNEL_NOT_FOUND: 'INVENTORY.CHANNEL_NOT_FOUND',
  CHANNEL_UNAVAILABLE: 'INVENTORY.CHANNEL_UNAVAILABLE',
  IMPORT_INVALID_FILE: 'INVENTORY.IMPORT_INVALID_FILE',
  IMPORT_HAS_ERRORS: 'INVENTORY.IMPORT_HAS_ERRORS',

  OBJECT_NOT_FOUND: 'MEDIA.OBJECT_NOT_FOUND',
  FOREIGN_OBJECT_URL: 'MEDIA.FOREIGN_OBJECT_URL',
  NOT_AN_IMAGE: 'MEDIA.NOT_AN_IMAGE',
  FILE_TOO_LARGE: 'MEDIA.FILE_TOO_LARGE',
  NO_FILE: 'MEDIA.NO_FILE',
  TOO_MANY_UPLOADS: 'MEDIA.TOO_MANY_UPLOADS',
  UPLOAD_TIMEOUT: 'MEDIA.UPLOAD_TIMEOUT',
  UPLOAD_LINK_REFUSED: 'MEDIA.UPLOAD_LINK_REFUSED',

  CHECK_INCOMPLETE: 'MONITOR.CHECK_INCOMPLETE',

  TOO_MANY_STREAMS: 'EVENTS.TOO_MANY_STREAMS',
  EVENTS_BUSY: 'EVENTS.SERVER_BUSY',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

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
