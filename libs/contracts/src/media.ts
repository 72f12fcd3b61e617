import { z } from 'zod';

/** Upload limits of spec sections 5 and 9. */
export const MAX_UPLOAD_BYTES = 50_485_760;
export const ROOM_FORM_MAX_UPLOAD_BYTES = 10_485_760;
export const MAX_UPLOAD_FILES = 1;

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
