// Without zod: the web app's room screen reads them with its first draw (issue 37's budget).

/**
 * Upload limits of spec sections 5 and 9, to the byte. 50485760 is not 50 MiB (52428800): it is the
 * spec's figure, about 48 MiB. The Helm chart's ingress body size is derived from it (deploy/test).
 */
export const MAX_UPLOAD_BYTES = 50_485_760;
export const ROOM_FORM_MAX_UPLOAD_BYTES = 10_485_760;
export const MAX_UPLOAD_FILES = 1;
