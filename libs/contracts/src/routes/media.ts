import {
  objectPathResultSchema,
  roomImageRegisterSchema,
  uploadResultSchema,
  uploadUrlResultSchema,
} from '../media';
import { type ApiRouteDef } from '../route-def';

/** Photos, wiring diagrams and seating layouts. The objects themselves are served at /objects/… */
export const mediaRoutes = {
  upload: {
    method: 'POST',
    path: '/api/upload',
    summary:
      'Upload one image (multipart field "file", at most 50485760 bytes; JPEG, PNG, GIF, WebP or AVIF by content); answers its url under /objects/',
    tag: 'Media',
    access: 'user',
    bodyContentType: 'multipart/form-data',
    response: uploadResultSchema,
  },
  createUploadUrl: {
    method: 'POST',
    path: '/api/objects/upload',
    summary: 'A presigned URL, valid 15 minutes, to PUT one image directly to the object store',
    tag: 'Media',
    access: 'user',
    response: uploadUrlResultSchema,
  },
  registerRoomImage: {
    method: 'PUT',
    path: '/api/room-images',
    summary: 'Register an image uploaded to a presigned URL; answers its path under /objects/',
    tag: 'Media',
    access: 'user',
    body: roomImageRegisterSchema,
    response: objectPathResultSchema,
  },
} as const satisfies Record<string, ApiRouteDef>;
