import {
  detectImageType,
  ErrorCode,
  IMAGE_SNIFF_BYTES,
  imageContentTypeSchema,
  MAX_UPLOAD_BYTES,
  mediaMessages,
  type ObjectDownload,
  type ObjectLookup,
  objectPathOf,
  type ObjectPathResult,
  type RegisteredObjects,
  type RegisteredObjectsRequest,
  type RoomImageRegistration,
  type UploadAbort,
  type UploadComplete,
  type UploadLink,
  type UploadResult,
  type UploadSession,
  type UploadStart,
  type UploadUrlRequest,
  type UploadUrlResult,
} from '@cm/contracts';
import { AppError } from '@cm/platform';
import { Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { ObjectStore } from '../storage/object-store';
import { MediaObjectRepository, type ObjectDetails } from './media-object.repository';

/** S3's smallest part (but the last): the gateway holds one part in memory at a time. */
export const PART_SIZE = 5 * 1024 * 1024;
const UPLOAD_URL_TTL_S = 15 * 60;
/** The gateway fetches a download at once; a leaked URL soon stops working. */
const DOWNLOAD_URL_TTL_S = 60;

const notFound = () =>
  new AppError(ErrorCode.OBJECT_NOT_FOUND, 'No uploaded file was found there. Upload the image again.');
const tooLarge = () => new AppError(ErrorCode.FILE_TOO_LARGE, mediaMessages.tooLarge);
const notAnImage = () => new AppError(ErrorCode.NOT_AN_IMAGE, mediaMessages.notAnImage);
const empty = () => new AppError(ErrorCode.NO_FILE, mediaMessages.empty);

@Injectable()
export class ObjectsService {
  private readonly logger = new Logger(ObjectsService.name);

  constructor(
    private readonly store: ObjectStore,
    private readonly objects: MediaObjectRepository,
  ) {}

  /** Opens a multipart upload with one presigned URL per part up to the size limit. */
  async startUpload({ contentType, ownerId }: UploadStart): Promise<UploadSession> {
    const key = newKey();
    const uploadId = await this.store.startMultipart(key, contentType);
    await this.objects.createPending(key, ownerId ?? null, uploadId);
    const partCount = Math.ceil(MAX_UPLOAD_BYTES / PART_SIZE);
    const partUrls = await Promise.all(
      Array.from({ length: partCount }, (_, i) =>
        this.store.presignPart(key, uploadId, i + 1, UPLOAD_URL_TTL_S),
      ),
    );
    return { key, uploadId, partSize: PART_SIZE, partUrls };
  }

  async completeUpload({ key, uploadId, parts }: UploadComplete): Promise<UploadResult> {
    const row = await this.objects.findByKey(key);
    if (!row || row.uploadId !== uploadId) throw notFound();
    await this.store.completeMultipart(key, uploadId, parts);
    await this.objects.markRegistered(key, await this.inspect(key));
    return { url: objectPathOf(key) };
  }

  async abortUpload({ key, uploadId }: UploadAbort): Promise<{ aborted: boolean }> {
    const row = await this.objects.findByKey(key);
    if (!row || row.uploadId !== uploadId || row.status !== 'pending') return { aborted: false };
    await this.discardUpload(key, uploadId);
    await this.objects.remove(key);
    return { aborted: true };
  }

  /**
   * A presigned PUT for a browser, to a fresh key, for a body of exactly the size it declared;
   * the object counts once it is registered. A declared type that is not an image we accept is
   * refused before the file is sent.
   */
  async createUploadUrl({ ownerId, size, contentType }: UploadUrlRequest): Promise<UploadUrlResult> {
    if (contentType !== undefined && !imageContentTypeSchema.safeParse(contentType).success)
      throw notAnImage();
    const key = newKey();
    await this.objects.createLink(key, ownerId ?? null, new Date(Date.now() + UPLOAD_URL_TTL_S * 1000));
    return { uploadURL: await this.store.presignPut(key, size ?? MAX_UPLOAD_BYTES, UPLOAD_URL_TTL_S) };
  }

  /**
   * Whether a PUT may still write `key`: only through a link issued for it, until it is registered
   * (its bytes are then copied and checked, and the link must not replace them) or expires.
   */
  async findUploadLink({ key }: ObjectLookup): Promise<UploadLink> {
    const row = await this.objects.findByKey(key);
    if (!row?.linkExpiresAt) return { state: 'unknown', ownerId: null };
    const state =
      row.status === 'registered' || row.registeredAs
        ? 'used'
        : row.linkExpiresAt.getTime() <= Date.now()
          ? 'expired'
          : 'open';
    return { state, ownerId: row.ownerId };
  }

  async registerRoomImage({ roomImageURL, ownerId }: RoomImageRegistration): Promise<ObjectPathResult> {
    const key = this.store.keyOfUrl(roomImageURL);
    if (!key) {
      throw new AppError(
        ErrorCode.FOREIGN_OBJECT_URL,
        'roomImageURL must be an upload URL issued by this app (POST /api/objects/upload).',
      );
    }
    const row = await this.objects.findByKey(key);
    if (!row || row.uploadId) throw notFound();
    if (row.status !== 'pending') return { objectPath: objectPathOf(key) };
    return {
      objectPath: objectPathOf(
        row.registeredAs ?? (await this.registerCopy(key, row.ownerId ?? ownerId ?? null)),
      ),
    };
  }

  async getObject({ key }: ObjectLookup): Promise<ObjectDownload> {
    const row = await this.objects.findByKey(key);
    if (!row || row.status === 'pending' || !row.contentType || !row.lastModified) throw notFound();
    return {
      url: await this.store.presignGet(key, DOWNLOAD_URL_TTL_S),
      contentType: row.contentType as ObjectDownload['contentType'],
      size: row.size ?? 0,
      etag: row.etag ?? '',
      lastModified: row.lastModified.toISOString(),
    };
  }

  async findRegistered({ keys }: RegisteredObjectsRequest): Promise<RegisteredObjects> {
    return { registered: await this.objects.registeredKeys(keys) };
  }

  /**
   * Checks what actually arrived in the store (size, magic bytes). What fails is removed at once:
   * nobody can use it, and the user is told why.
   */
  private async inspect(key: string): Promise<ObjectDetails> {
    const { size, etag, lastModified } = await this.head(key);
    await this.refuseSize(key, size);
    const contentType = detectImageType(await this.store.readStart(key, IMAGE_SNIFF_BYTES));
    if (!contentType) {
      await this.discard(key);
      throw notAnImage();
    }
    return { contentType, size, etag, lastModified };
  }

  /**
   * A presigned URL stays usable for its whole lifetime, so the bytes behind it could be replaced
   * after registration. The store copies them to a key no URL was issued for, and what is
   * inspected and served is that copy; the upload is removed (its row goes with the cleanup).
   */
  private async registerCopy(uploadKey: string, ownerId: string | null): Promise<string> {
    await this.refuseSize(uploadKey, (await this.head(uploadKey)).size);
    const key = newKey();
    await this.store.copy(uploadKey, key);
    await this.store.delete(uploadKey);
    await this.objects.recordCopy(uploadKey, key, ownerId, await this.inspect(key));
    return key;
  }

  /** An empty or oversize object is removed and refused; an empty one is never read. */
  private async refuseSize(key: string, size: number): Promise<void> {
    if (size > 0 && size <= MAX_UPLOAD_BYTES) return;
    await this.discard(key);
    throw size === 0 ? empty() : tooLarge();
  }

  private async head(key: string) {
    const object = await this.store.head(key);
    if (!object) throw notFound();
    return object;
  }

  private async discard(key: string): Promise<void> {
    await this.store.delete(key);
    await this.objects.remove(key);
  }

  /** Deletes what a multipart upload left behind; stores without abort support keep parts until their own expiry. */
  async discardUpload(key: string, uploadId: string | null): Promise<void> {
    if (uploadId) {
      await this.store
        .abortMultipart(key, uploadId)
        .catch((error: unknown) =>
          this.logger.warn(`Could not abort upload of ${key}: ${(error as Error).name}`),
        );
    }
    await this.store.delete(key);
  }
}

function newKey(): string {
  return `uploads/${randomUUID()}`;
}
