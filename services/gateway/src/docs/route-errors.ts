import { type ApiRouteDef, ErrorCode } from '@cm/contracts';

/** The record a path parameter names, by the path's first segment, and its "not found" code. */
const notFoundByCollection: Record<string, ErrorCode> = {
  buildings: ErrorCode.BUILDING_NOT_FOUND,
  rooms: ErrorCode.ROOM_NOT_FOUND,
  equipment: ErrorCode.EQUIPMENT_NOT_FOUND,
  'maintenance-windows': ErrorCode.MAINTENANCE_WINDOW_NOT_FOUND,
  'notification-channels': ErrorCode.CHANNEL_NOT_FOUND,
  'schedule-sources': ErrorCode.SCHEDULE_SOURCE_NOT_FOUND,
  users: ErrorCode.USER_NOT_FOUND,
  tokens: ErrorCode.NOT_FOUND,
};

/**
 * Codes that follow from what a route takes: parameters, a body, an `Idempotency-Key`. The JSON
 * body parser reads every request ahead of the routes (src/gateway.ts), so any route refuses a
 * JSON body it cannot read, too large or in an encoding it does not know, even one that takes none.
 */
function inputErrors(route: ApiRouteDef): ErrorCode[] {
  const codes: ErrorCode[] = [
    ErrorCode.VALIDATION_FAILED,
    ErrorCode.PAYLOAD_TOO_LARGE,
    ErrorCode.UNSUPPORTED_MEDIA_TYPE,
  ];
  if (route.idempotent) codes.push(ErrorCode.IDEMPOTENCY_KEY_REUSED, ErrorCode.IDEMPOTENCY_KEY_IN_USE);
  if (route.versioned && route.method !== 'GET') codes.push(ErrorCode.STALE_VERSION);
  const collection = route.path.split('/')[2];
  if (route.path.includes('/:') && notFoundByCollection[collection])
    codes.push(notFoundByCollection[collection]);
  return codes;
}

/** Codes that follow from who may call a route and how it changes things. */
function accessErrors(route: ApiRouteDef): ErrorCode[] {
  const codes: ErrorCode[] = [];
  // Only a changing request is checked for its origin (the CSRF defence).
  if (route.method !== 'GET') codes.push(ErrorCode.CROSS_SITE_REQUEST);
  if (route.access === 'public') return codes;
  // A token's scope can refuse a user route too, and REQUIRE_ADMIN_TOTP holds back an administrator.
  codes.push(ErrorCode.UNAUTHENTICATED, ErrorCode.FORBIDDEN, ErrorCode.TOTP_ENROLMENT_REQUIRED);
  return codes;
}

/** Every 4xx code a route can answer: those its shape implies, then its own (`errors`). */
export function routeErrorCodes(route: ApiRouteDef): ErrorCode[] {
  return [...new Set([...inputErrors(route), ...accessErrors(route), ...(route.errors ?? [])])];
}
