import { ErrorCode } from '../errors';
import {
  objectPathResultSchema,
  roomImageRegisterSchema,
  uploadResultSchema,
  uploadUrlBodySchema,
  uploadUrlResultSchema,
} from '../media';
import { type ApiRouteDef } from '../route-def';

/** Photos, wiring diagrams and seating layouts. The objects themselves are served at /objects/… */
export const mediaRoutes = {
  upload: {
    method: 'POST',
    path: '/api/upload',
    summary:
      'Upload one image (multipart field "file", at most 50485760 bytes; JPEG, PNG, GIF, WebP or AVIF by content); answers its url under /objects/. With an Idempotency-Key, a retry answers the first upload\'s url and stores nothing. 429 with Retry-After when too many uploads run; 408 when the client stops sending',
    tag: 'Media',
    access: 'user',
    bodyContentType: 'multipart/form-data',
    response: uploadResultSchema,
    // A phone's upload kept offline is sent again after an answer it did not get: stored once.
    idempotent: true,
    errors: [
      ErrorCode.NO_FILE,
      ErrorCode.NOT_AN_IMAGE,
      ErrorCode.FILE_TOO_LARGE,
      ErrorCode.TOO_MANY_UPLOADS,
      ErrorCode.UPLOAD_TIMEOUT,
    ],
  },
  createUploadUrl: {
    method: 'POST',
    path: '/api/objects/upload',
    summary:
      "A presigned URL, valid 15 minutes, to PUT one image directly to the object store. The body gives the file's size in bytes, signed into the URL so that the store refuses any other length (without it, the length signed is 50485760), and may give its type",
    tag: 'Media',
    access: 'user',
    body: uploadUrlBodySchema,
    response: uploadUrlResultSchema,
    errors: [ErrorCode.NOT_AN_IMAGE, ErrorCode.FILE_TOO_LARGE],
  },
  registerRoomImage: {
    method: 'PUT',
    path: '/api/room-images',
    summary: 'Register an image uploaded to a presigned URL; answers its path under /objects/',
    tag: 'Media',
    access: 'user',
    body: roomImageRegisterSchema,
    response: objectPathResultSchema,
    errors: [
      ErrorCode.NO_FILE,
      ErrorCode.FOREIGN_OBJECT_URL,
      ErrorCode.OBJECT_NOT_FOUND,
      ErrorCode.NOT_AN_IMAGE,
      ErrorCode.FILE_TOO_LARGE,
      ErrorCode.ROOM_NOT_FOUND,
    ],
  },
} as const satisfies Record<string, ApiRouteDef>;
