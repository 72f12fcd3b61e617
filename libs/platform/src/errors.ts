import { describeZodError, ErrorCode, type ErrorBody, type FieldError } from '@cm/contracts';
import { z } from 'zod';

/** The one error type services raise: a stable code, a sentence for a person, field details. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly errors?: FieldError[],
  ) {
    super(message);
    this.name = 'AppError';
  }

  static fromZod(error: z.ZodError): AppError {
    const { message, errors } = describeZodError(error);
    return new AppError(ErrorCode.VALIDATION_FAILED, message, errors);
  }

  toBody(): ErrorBody {
    return this.errors?.length
      ? { code: this.code, message: this.message, errors: this.errors }
      : { code: this.code, message: this.message };
  }
}

/** The single table from error codes to HTTP statuses, used only by the gateway. */
export const httpStatusByCode: Record<ErrorCode, number> = {
  [ErrorCode.VALIDATION_FAILED]: 400,
  [ErrorCode.NOT_FOUND]: 404,
  [ErrorCode.ROUTE_NOT_FOUND]: 404,
  [ErrorCode.CONFLICT]: 409,
  [ErrorCode.PAYLOAD_TOO_LARGE]: 413,
  [ErrorCode.LENGTH_REQUIRED]: 411,
  [ErrorCode.METHOD_NOT_ALLOWED]: 405,
  [ErrorCode.UNSUPPORTED_MEDIA_TYPE]: 415,
  [ErrorCode.SERVICE_UNAVAILABLE]: 503,
  [ErrorCode.SERVICE_TIMEOUT]: 504,
  [ErrorCode.INTERNAL]: 500,
  [ErrorCode.IDEMPOTENCY_KEY_REUSED]: 422,
  [ErrorCode.IDEMPOTENCY_KEY_IN_USE]: 409,
  [ErrorCode.STALE_VERSION]: 412,
  [ErrorCode.UNAUTHENTICATED]: 401,
  [ErrorCode.FORBIDDEN]: 403,
  [ErrorCode.CROSS_SITE_REQUEST]: 403,
  [ErrorCode.INVALID_CREDENTIALS]: 401,
  [ErrorCode.TOO_MANY_ATTEMPTS]: 429,
  [ErrorCode.PASSWORD_CHECKS_BUSY]: 503,
  [ErrorCode.USER_NOT_FOUND]: 404,
  [ErrorCode.USERNAME_TAKEN]: 409,
  [ErrorCode.EMAIL_TAKEN]: 409,
  [ErrorCode.LAST_ADMIN]: 409,
  [ErrorCode.SELF_CHANGE]: 409,
  [ErrorCode.TOTP_INVALID]: 401,
  [ErrorCode.TOTP_CHALLENGE_EXPIRED]: 401,
  // The server is not set up to keep the secret (AUTH_TOTP_KEY): the screen says why.
  [ErrorCode.TOTP_UNAVAILABLE]: 400,
  [ErrorCode.TOTP_STATE]: 409,
  [ErrorCode.TOTP_ENROLMENT_REQUIRED]: 403,
  // Only single sign-on tells it: the provider already proved who the person is.
  [ErrorCode.ACCOUNT_DEACTIVATED]: 403,
  // A password or role of an account the identity provider manages.
  [ErrorCode.EXTERNAL_ACCOUNT]: 409,
  [ErrorCode.SSO_NOT_CONFIGURED]: 404,
  [ErrorCode.SSO_FAILED]: 401,
  [ErrorCode.SSO_EXPIRED]: 401,
  [ErrorCode.SSO_CANCELLED]: 401,
  [ErrorCode.SSO_PROVIDER_UNAVAILABLE]: 503,
  [ErrorCode.SSO_NO_USERNAME]: 422,
  [ErrorCode.SSO_ACCOUNT_CONFLICT]: 409,
  [ErrorCode.BUILDING_NOT_FOUND]: 404,
  [ErrorCode.ROOM_NOT_FOUND]: 404,
  [ErrorCode.EQUIPMENT_NOT_FOUND]: 404,
  [ErrorCode.ADDRESS_LIMIT_REACHED]: 409,
  [ErrorCode.MAINTENANCE_WINDOW_NOT_FOUND]: 404,
  [ErrorCode.CHANNEL_NOT_FOUND]: 404,
  // The server is not set up for the channel (SMTP, the secret key, the allowed hosts): the form says why.
  [ErrorCode.CHANNEL_UNAVAILABLE]: 400,
  // The file is not a CSV this import reads (encoding, header, quoting): the message says what to fix.
  [ErrorCode.IMPORT_INVALID_FILE]: 400,
  // Its lines have errors (listed): nothing was applied.
  [ErrorCode.IMPORT_HAS_ERRORS]: 422,
  [ErrorCode.SCHEDULE_SOURCE_NOT_FOUND]: 404,
  [ErrorCode.SCHEDULE_URL_REFUSED]: 400,
  // Lines of the timetable have errors (listed by line): the schedule in use is kept.
  [ErrorCode.SCHEDULE_FILE_INVALID]: 422,
  [ErrorCode.SCHEDULE_IS_FEED]: 409,
  [ErrorCode.OBJECT_NOT_FOUND]: 404,
  [ErrorCode.FOREIGN_OBJECT_URL]: 400,
  [ErrorCode.NOT_AN_IMAGE]: 415,
  [ErrorCode.FILE_TOO_LARGE]: 413,
  [ErrorCode.NO_FILE]: 400,
  [ErrorCode.TOO_MANY_UPLOADS]: 429,
  [ErrorCode.UPLOAD_TIMEOUT]: 408,
  [ErrorCode.UPLOAD_LINK_REFUSED]: 403,
  [ErrorCode.CHECK_INCOMPLETE]: 504,
  [ErrorCode.TOO_MANY_STREAMS]: 429,
  [ErrorCode.EVENTS_BUSY]: 503,
};

/** Codes whose answer says when to come back (`Retry-After`, in seconds): the condition passes by itself. */
export const retryAfterSecondsByCode: Partial<Record<ErrorCode, number>> = {
  [ErrorCode.PASSWORD_CHECKS_BUSY]: 1,
  [ErrorCode.EVENTS_BUSY]: 5,
  [ErrorCode.IDEMPOTENCY_KEY_IN_USE]: 1,
};

export function httpStatusFor(code: string): number {
  return httpStatusByCode[code as ErrorCode] ?? 500;
}

const knownCodes = new Set<string>(Object.values(ErrorCode));

export function isErrorBody(value: unknown): value is ErrorBody {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as ErrorBody).code === 'string' &&
    knownCodes.has((value as ErrorBody).code) &&
    typeof (value as ErrorBody).message === 'string'
  );
}

/**
 * Socket errors, and PostgreSQL's classes 08 (connection exception) and 57P (operator
 * intervention: shutting down, starting up), by the code on the error or on TypeORM's driverError.
 */
const unreachableCodes =
  /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|EHOSTUNREACH|ENOTFOUND|EAI_AGAIN|08...|57P0[1-3])$/;
/** What node-postgres says when a connection drops or the pool cannot get one in time. */
const unreachableMessages =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i;

/** The code of an error (a PostgreSQL SQLSTATE, a socket's), whether TypeORM wrapped it or not. */
export function pgCodeOf(error: unknown): string | undefined {
  const e = error as { code?: unknown; driverError?: { code?: unknown } } | null;
  const code = e?.driverError?.code ?? e?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Whether an error says that the database (or another server) could not be reached: a retry may do. */
export function isUnreachable(error: unknown): boolean {
  if (unreachableCodes.test(pgCodeOf(error) ?? '')) return true;
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' && unreachableMessages.test(message);
}

/**
 * Any thrown value as an error body; what is not ours becomes INTERNAL without leaking details,
 * but for a server that could not be reached: the caller hears SERVICE_UNAVAILABLE (503), which
 * says that trying again later is worth it.
 */
export function toErrorBody(error: unknown): ErrorBody {
  if (error instanceof AppError) return error.toBody();
  if (error instanceof z.ZodError) return AppError.fromZod(error).toBody();
  if (isErrorBody(error)) return error;
  if (isUnreachable(error))
    return {
      code: ErrorCode.SERVICE_UNAVAILABLE,
      message: 'The service is unavailable just now. Try again shortly.',
    };
  return { code: ErrorCode.INTERNAL, message: 'Something went wrong on the server. Try again.' };
}
