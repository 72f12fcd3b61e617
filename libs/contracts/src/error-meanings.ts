import { ErrorCode } from './errors';

/**
 * What each error code means, for the API document: a client branches on the code, and the
 * person reading the document learns from this when it is answered and what to do.
 */
export const errorCodeMeanings: Record<ErrorCode, string> = {
  [ErrorCode.VALIDATION_FAILED]: 'A parameter, a header or the body is not valid; `errors` names each field',
  [ErrorCode.NOT_FOUND]: 'The record named in the path does not exist',
  [ErrorCode.ROUTE_NOT_FOUND]: 'No route has this method and path',
  [ErrorCode.CONFLICT]:
    'The request conflicts with the stored state (a file changed in the store after its upload)',
  [ErrorCode.PAYLOAD_TOO_LARGE]: 'The body is larger than this route takes',
  [ErrorCode.LENGTH_REQUIRED]: 'The upload did not say its length (Content-Length)',
  [ErrorCode.METHOD_NOT_ALLOWED]: 'The upload link takes PUT only',
  [ErrorCode.UNSUPPORTED_MEDIA_TYPE]: 'The body is not of the type this route takes (application/json)',
  [ErrorCode.SERVICE_UNAVAILABLE]: 'A service this route needs is not answering; try again shortly',
  [ErrorCode.SERVICE_TIMEOUT]: 'A service this route needs did not answer in time; try again shortly',
  [ErrorCode.INTERNAL]: 'An unexpected error; the log has its details',
  [ErrorCode.IDEMPOTENCY_KEY_REUSED]: 'This Idempotency-Key was already used with a different body',
  [ErrorCode.STALE_VERSION]:
    'If-Match names an older version: the record was edited since; `current` is the record as it is now',
  [ErrorCode.IDEMPOTENCY_KEY_IN_USE]:
    'A request with this Idempotency-Key is still being handled (Retry-After)',
  [ErrorCode.UNAUTHENTICATED]: 'No valid session or API token: sign in',
  [ErrorCode.FORBIDDEN]: 'Signed in, but this route needs an administrator or a wider token scope',
  [ErrorCode.CROSS_SITE_REQUEST]: 'A changing request from another site (Origin) is refused',
  [ErrorCode.INVALID_CREDENTIALS]: 'The username or password is wrong',
  [ErrorCode.TOO_MANY_ATTEMPTS]: 'Too many failed sign-ins for this account or address (Retry-After)',
  [ErrorCode.PASSWORD_CHECKS_BUSY]: 'Too many password checks at once (Retry-After)',
  [ErrorCode.USER_NOT_FOUND]: 'The user named in the path does not exist',
  [ErrorCode.USERNAME_TAKEN]: 'Another user has this username',
  [ErrorCode.EMAIL_TAKEN]: 'Another user has this e-mail address',
  [ErrorCode.LAST_ADMIN]: 'The change would leave no active administrator',
  [ErrorCode.SELF_CHANGE]: 'Administrators cannot deactivate or delete their own account',
  [ErrorCode.TOTP_INVALID]: 'The two-factor code is wrong or already used',
  [ErrorCode.TOTP_CHALLENGE_EXPIRED]: 'The two-factor step took too long: sign in again',
  [ErrorCode.TOTP_UNAVAILABLE]: 'Two-factor sign-in is not set up on this server (AUTH_TOTP_KEY)',
  [ErrorCode.TOTP_STATE]: 'Two-factor sign-in is already on, or not on, for this account',
  [ErrorCode.TOTP_ENROLMENT_REQUIRED]: 'This administrator must turn on two-factor sign-in first',
  [ErrorCode.ACCOUNT_DEACTIVATED]: 'The account is deactivated',
  [ErrorCode.EXTERNAL_ACCOUNT]: 'The identity provider manages this account: change it there',
  [ErrorCode.SSO_NOT_CONFIGURED]: 'Single sign-on is not set up on this server',
  [ErrorCode.SSO_FAILED]: 'The identity provider did not confirm the sign-in',
  [ErrorCode.SSO_EXPIRED]: 'The single sign-on took too long: start again',
  [ErrorCode.SSO_CANCELLED]: 'The sign-in was cancelled at the identity provider',
  [ErrorCode.SSO_PROVIDER_UNAVAILABLE]: 'The identity provider is not answering',
  [ErrorCode.SSO_NO_USERNAME]: 'The identity provider sent no username',
  [ErrorCode.SSO_ACCOUNT_CONFLICT]: 'A local account already has this username',
  [ErrorCode.BUILDING_NOT_FOUND]: 'The building named in the path does not exist',
  [ErrorCode.ROOM_NOT_FOUND]: 'The room named in the path or body does not exist',
  [ErrorCode.EQUIPMENT_NOT_FOUND]: 'The equipment named in the path does not exist',
  [ErrorCode.ADDRESS_LIMIT_REACHED]: 'The campus-wide limit of monitored addresses would be passed',
  [ErrorCode.MAINTENANCE_WINDOW_NOT_FOUND]: 'The maintenance window named in the path does not exist',
  [ErrorCode.CHANNEL_NOT_FOUND]: 'The notification channel named in the path does not exist',
  [ErrorCode.CHANNEL_UNAVAILABLE]:
    'The server is not set up for this channel type (the message says what is missing)',
  [ErrorCode.IMPORT_INVALID_FILE]: 'The file is not a CSV this import reads (the message says what to fix)',
  [ErrorCode.IMPORT_HAS_ERRORS]: 'Lines of the file have errors (listed in `errors`); nothing was applied',
  [ErrorCode.SCHEDULE_SOURCE_NOT_FOUND]: 'The class schedule named in the path does not exist',
  [ErrorCode.SCHEDULE_URL_REFUSED]:
    'The feed address may not be fetched: not http(s), outside the allowed hosts, or a loopback, private-use or other special address not listed in ALERTS_ALLOWED_TARGETS',
  [ErrorCode.SCHEDULE_FILE_INVALID]:
    'The file is not an iCalendar or timetable CSV this server reads, or lines of it have errors (listed in `errors` by line); the schedule in use is kept',
  [ErrorCode.SCHEDULE_IS_FEED]:
    'The schedule is a feed, read from its URL: remove the URL to upload files to it',
  [ErrorCode.OBJECT_NOT_FOUND]: 'The picture or file does not exist',
  [ErrorCode.FOREIGN_OBJECT_URL]: 'The address is not a picture uploaded to this system',
  [ErrorCode.NOT_AN_IMAGE]: 'The file is not a JPEG, PNG, GIF, WebP or AVIF picture',
  [ErrorCode.FILE_TOO_LARGE]: 'The file is larger than the limit',
  [ErrorCode.NO_FILE]: 'The form has no file in its `file` field',
  [ErrorCode.TOO_MANY_UPLOADS]: 'Too many uploads at once (Retry-After)',
  [ErrorCode.UPLOAD_TIMEOUT]: 'The upload stopped sending for too long',
  [ErrorCode.UPLOAD_LINK_REFUSED]:
    'The upload link is not one this system issued, or has expired or been used',
  [ErrorCode.CHECK_INCOMPLETE]: 'The check did not finish in time; the statuses it reached are kept',
  [ErrorCode.TOO_MANY_STREAMS]: 'Too many live streams open for this user',
  [ErrorCode.EVENTS_BUSY]: 'The server holds as many live streams as it can (Retry-After)',
};
