import { z } from 'zod';
import { MAX_UPLOAD_BYTES } from './upload-limits';

export { MAX_UPLOAD_BYTES, MAX_UPLOAD_FILES, ROOM_FORM_MAX_UPLOAD_BYTES } from './upload-limits';

export const uploadResultSchema = z.object({ url: z.string() });
export type UploadResult = z.infer<typeof uploadResultSchema>;

export const uploadUrlResultSchema = z.object({ uploadURL: z.url() });
export type UploadUrlResult = z.infer<typeof uploadUrlResultSchema>;

export const roomImageRegisterSchema = z.object({
  roomImageURL: z
    .string({ message: 'roomImageURL is required' })
    .min(1, { message: 'roomImageURL is required' }),
});
export type RoomImageRegister = z.infer<typeof roomImageRegisterSchema>;

export const objectPathResultSchema = z.object({ objectPath: z.string() });
export type ObjectPathResult = z.infer<typeof objectPathResultSchema>;

/**
 * Images the product accepts, judged by their first bytes. SVG is refused: it is a document
 * that can carry script. HEIC is refused because most browsers cannot show it (phones convert
 * to JPEG when a web page picks a photo); AVIF is accepted, every current browser shows it.
 */
export const imageContentTypes = [
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'image/avif',
] as const;
export const imageContentTypeSchema = z.enum(imageContentTypes);
export type ImageContentType = z.infer<typeof imageContentTypeSchema>;

/** How many leading bytes `detectImageType` needs to decide. */
export const IMAGE_SNIFF_BYTES = 32;

const startsWith = (bytes: Uint8Array, signature: readonly number[], offset = 0) =>
  bytes.length >= offset + signature.length && signature.every((b, i) => bytes[offset + i] === b);
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/** The image type of a file by its magic bytes, or null when it is not an image we accept. */
export function detectImageType(bytes: Uint8Array): ImageContentType | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'image/gif';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp';
  if (
    startsWith(bytes, ascii('ftyp'), 4) &&
    (startsWith(bytes, ascii('avif'), 8) || startsWith(bytes, ascii('avis'), 8))
  )
    return 'image/avif';
  return null;
}

const uuidPattern = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
/** Every key media issues: server-generated, never a user's file name. */
export const objectKeyPattern = new RegExp(`^uploads/${uuidPattern}$`);
export const objectKeySchema = z.string().regex(objectKeyPattern, { message: 'Not an object of this store' });

/** Objects are served by the gateway under this path, outside /api. */
export const OBJECTS_PATH_PREFIX = '/objects/';
export const objectPathOf = (key: string) => `${OBJECTS_PATH_PREFIX}${key}`;

/** The key of an object path the product produces (`/objects/uploads/<id>`), or null for anything else. */
export function keyOfObjectPath(path: string): string | null {
  if (!path.startsWith(OBJECTS_PATH_PREFIX)) return null;
  const key = path.slice(OBJECTS_PATH_PREFIX.length);
  return objectKeyPattern.test(key) ? key : null;
}

/** The fields that hold pictures (of buildings, rooms and equipment), with the names a person reads. */
export const pictureFieldLabels = {
  imageUrl: 'Image URL',
  wiringDiagramUrl: 'Wiring diagram URL',
  seatingLayoutUrl: 'Seating layout URL',
} as const;
export type PictureField = keyof typeof pictureFieldLabels;

export const pictureMessages = {
  notOurs: (label: string) =>
    `${label} must be a picture uploaded to Classroom Monitor (a path under ${OBJECTS_PATH_PREFIX}uploads/). Upload the image instead of typing an address.`,
  notRegistered: (label: string) =>
    `${label} names no picture uploaded to Classroom Monitor. Upload the image again.`,
} as const;

/**
 * A picture field: only the path of an object this product stored. Pages show these as images
 * with the viewer's cookie, so any other address (a sign-out link, another site) is refused.
 * Empty or null clears the picture.
 */
export const picturePath = (field: PictureField) =>
  z
    .string({ message: `${pictureFieldLabels[field]} must be text` })
    .trim()
    .nullish()
    .refine((v) => !v || keyOfObjectPath(v) !== null, {
      message: pictureMessages.notOurs(pictureFieldLabels[field]),
    })
    .transform((v) => (v ? v : null))
    .describe(
      `The path of a picture uploaded to Classroom Monitor (${OBJECTS_PATH_PREFIX}uploads/<id>, as POST /api/upload or PUT /api/room-images answers it); empty or null removes it`,
    );

/** Who asked, when the gateway knows (recorded as the object's owner). */
const ownerSchema = z.object({ ownerId: z.string().max(64).nullish() });

/** gateway → media: open a streamed upload once the first bytes proved an image. */
export const uploadStartSchema = ownerSchema.extend({ contentType: imageContentTypeSchema });
export type UploadStart = z.infer<typeof uploadStartSchema>;

/** media → gateway: where to PUT each part of the file (S3 multipart upload, presigned). */
export const uploadSessionSchema = z.object({
  key: objectKeySchema,
  uploadId: z.string().min(1),
  partSize: z.number().int().positive(),
  partUrls: z.array(z.url()).min(1),
});
export type UploadSession = z.infer<typeof uploadSessionSchema>;

export const uploadCompleteSchema = z.object({
  key: objectKeySchema,
  uploadId: z.string().min(1),
  parts: z
    .array(z.object({ partNumber: z.number().int().min(1).max(10_000), etag: z.string().min(1) }))
    .min(1),
});
export type UploadComplete = z.infer<typeof uploadCompleteSchema>;

export const uploadAbortSchema = z.object({ key: objectKeySchema, uploadId: z.string().min(1) });
export type UploadAbort = z.infer<typeof uploadAbortSchema>;

/** False when there was no pending upload of that key and id (already completed or aborted). */
export const uploadAbortResultSchema = z.object({ aborted: z.boolean() });
export type UploadAbortResult = z.infer<typeof uploadAbortResultSchema>;

export const roomImageRegistrationSchema = roomImageRegisterSchema.extend(ownerSchema.shape);
export type RoomImageRegistration = z.infer<typeof roomImageRegistrationSchema>;

export const objectLookupSchema = z.object({ key: objectKeySchema });
export type ObjectLookup = z.infer<typeof objectLookupSchema>;

/** gateway → media: which of these keys are registered objects (pending and unknown keys are not). */
export const registeredObjectsRequestSchema = z.object({ keys: z.array(objectKeySchema).min(1).max(16) });
export type RegisteredObjectsRequest = z.infer<typeof registeredObjectsRequestSchema>;
export const registeredObjectsSchema = z.object({ registered: z.array(objectKeySchema) });
export type RegisteredObjects = z.infer<typeof registeredObjectsSchema>;

/**
 * What became of an upload link (a presigned PUT media issued), as the gateway's /store asks
 * before it forwards a PUT: `open` until it is registered (`used`) or outlives its signature
 * (`expired`); `unknown` for any key media issued no link for (a streamed upload, a registered
 * copy, a removed or made-up key).
 */
export const uploadLinkStateSchema = z.enum(['open', 'used', 'expired', 'unknown']);
export type UploadLinkState = z.infer<typeof uploadLinkStateSchema>;

/** media → gateway: the state of an upload link, and who asked for it (their upload slots count it). */
export const uploadLinkSchema = z.object({
  state: uploadLinkStateSchema,
  ownerId: z.string().nullable(),
});
export type UploadLink = z.infer<typeof uploadLinkSchema>;

/** media → gateway: how to stream one object back, and its validators for conditional requests. */
export const objectDownloadSchema = z.object({
  url: z.url(),
  contentType: imageContentTypeSchema,
  size: z.number().int().nonnegative(),
  etag: z.string(),
  lastModified: z.iso.datetime(),
});
export type ObjectDownload = z.infer<typeof objectDownloadSchema>;

/** What a person reads when an upload is refused, wherever it is refused (gateway or media). */
export const mediaMessages = {
  noFile: 'Choose an image to upload (a multipart form with one field "file").',
  tooLarge: `The file is larger than ${MAX_UPLOAD_BYTES} bytes (about 48 MB). Choose a smaller image.`,
  notAnImage: 'The file is not an image. Choose a JPEG, PNG, GIF, WebP or AVIF picture.',
  empty: 'The file is empty. Choose an image to upload.',
  truncated: 'The upload ended before the whole file arrived. Try again.',
  idle: 'The upload stopped sending data and was cancelled. Check the connection and try again.',
} as const;

/**
 * What the browser says of the file when it asks for an upload URL. The size is signed into the
 * URL, so the store itself refuses a body of any other length. The spec's empty body still gets
 * a URL, signed for a file of the largest size: no URL lets more than that into the store.
 */
export const uploadUrlBodySchema = z.object({
  size: z
    .number({ message: 'size must be the file size in bytes' })
    .int({ message: 'size must be the file size in bytes' })
    .min(1, { message: mediaMessages.empty })
    .max(MAX_UPLOAD_BYTES, { message: mediaMessages.tooLarge })
    .optional(),
  contentType: z.string().max(255).optional(),
});
export type UploadUrlBody = z.infer<typeof uploadUrlBodySchema>;

/** gateway → media: a presigned PUT for the browser. */
export const uploadUrlRequestSchema = uploadUrlBodySchema.extend(ownerSchema.shape);
export type UploadUrlRequest = z.infer<typeof uploadUrlRequestSchema>;
