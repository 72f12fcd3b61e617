import { ErrorCode } from '@cm/contracts';
import { AppError, CONFIG, HealthService } from '@cm/platform';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  PutBucketCorsCommand,
  PutObjectCommand,
  S3Client,
  type S3ServiceException,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { type Config } from '../config';
import { keyFromStoreUrl } from './store-url';

const MAX_ATTEMPTS = 3;

function createS3Client(config: Config, endpoint = config.S3_ENDPOINT): S3Client {
  return new S3Client({
    endpoint,
    region: config.S3_REGION,
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
    credentials: { accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY },
    // Without throwOnRequestTimeout the SDK only logs a warning when a request outlives its timeout.
    requestHandler: {
      requestTimeout: config.S3_REQUEST_TIMEOUT_MS,
      throwOnRequestTimeout: true,
      connectionTimeout: 5000,
    },
    maxAttempts: MAX_ATTEMPTS,
    // By default the SDK puts the checksum of an empty body into every presigned PUT, and a store
    // that checks it refuses the real file.
    requestChecksumCalculation: 'WHEN_REQUIRED',
  });
}

const statusOf = (error: unknown) => (error as S3ServiceException).$metadata?.httpStatusCode;

/** The store failed, not the request: no answer, a timeout, its own fault, or our credentials refused. */
export class StoreUnavailableError extends AppError {
  constructor(override readonly cause: unknown) {
    super(ErrorCode.SERVICE_UNAVAILABLE, 'The file store is unavailable. Try again shortly.');
  }
}

/**
 * Turns the store's failures into a 503 the caller can retry, rather than a 500 that blames the
 * request; a missing object (404) and the request's own faults pass through unchanged.
 */
function mapStoreFailures(client: S3Client): S3Client {
  client.middlewareStack.add(
    (next) => async (args) => {
      try {
        return await next(args);
      } catch (error) {
        const status = statusOf(error);
        if (status === undefined || status >= 500 || status === 403) throw new StoreUnavailableError(error);
        throw error;
      }
    },
    { step: 'initialize', name: 'mapStoreFailures' },
  );
  return client;
}

/** What the store knows of an object without reading it. */
export interface StoredObject {
  size: number;
  etag: string | null;
  lastModified: Date;
}

export interface UploadedPart {
  partNumber: number;
  etag: string;
}

/**
 * The private bucket every media object lives in, created at start when missing; the only place
 * the S3 API appears. Callers speak of keys.
 */
@Injectable()
export class ObjectStore implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(ObjectStore.name);
  private readonly client: S3Client;
  /** Signs URLs for browsers, which may reach the store at another address than we do. */
  private readonly publicClient: S3Client;
  readonly bucket: string;
  /** Origins (scheme, host, port) under which URLs of this store are ours. */
  private readonly endpoints: string[];
  /**
   * The request timeout bounds one attempt; this bounds a whole call, retries and their back-off
   * included, so that a failing store cannot hold a request (or the cleanup's lock) for long.
   */
  private readonly deadlineMs: number;

  constructor(
    @Inject(CONFIG) private readonly config: Config,
    health: HealthService,
  ) {
    this.client = mapStoreFailures(createS3Client(config));
    this.publicClient = config.S3_PUBLIC_ENDPOINT
      ? createS3Client(config, config.S3_PUBLIC_ENDPOINT)
      : this.client;
    this.bucket = config.S3_BUCKET;
    this.endpoints = [...new Set([config.S3_PUBLIC_ENDPOINT ?? config.S3_ENDPOINT, config.S3_ENDPOINT])];
    this.deadlineMs = config.S3_REQUEST_TIMEOUT_MS * MAX_ATTEMPTS;
    // Only uploads and photos need the store: media keeps serving its other work while it is away.
    health.register('s3', () => this.check(), { critical: false });
  }

  /** Fails unless the store answers and the bucket is there. */
  async check(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }), this.deadline());
    } catch (error) {
      // Operators read this in the system status: the store's own words, not the user's sentence.
      throw error instanceof StoreUnavailableError ? error.cause : error;
    }
  }

  /** The key of a URL this store issued (either endpoint, our bucket, a key media hands out), or null. */
  keyOfUrl(url: string): string | null {
    return keyFromStoreUrl(url, {
      endpoints: this.endpoints,
      bucket: this.bucket,
      forcePathStyle: this.config.S3_FORCE_PATH_STYLE,
    });
  }

  /**
   * A URL a browser can PUT one object of exactly `contentLength` bytes to, without credentials:
   * the length is a signed header, so a store that checks signatures (S3, MinIO) refuses a body
   * of any other length.
   */
  presignPut(key: string, contentLength: number, expiresInSeconds: number): Promise<string> {
    return getSignedUrl(
      this.publicClient,
      new PutObjectCommand({ Bucket: this.bucket, Key: key, ContentLength: contentLength }),
      { expiresIn: expiresInSeconds, signableHeaders: new Set(['content-length']) },
    );
  }

  /** A URL the gateway can GET the object from. */
  presignGet(key: string, expiresInSeconds: number): Promise<string> {
    return getSignedUrl(this.client, new GetObjectCommand({ Bucket: this.bucket, Key: key }), {
      expiresIn: expiresInSeconds,
    });
  }

  /** A URL the gateway can PUT one part of a multipart upload to. */
  presignPart(key: string, uploadId: string, partNumber: number, expiresInSeconds: number): Promise<string> {
    return getSignedUrl(
      this.client,
      new UploadPartCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId, PartNumber: partNumber }),
      { expiresIn: expiresInSeconds },
    );
  }

  /** Opens a multipart upload; answers its id. */
  async startMultipart(key: string, contentType: string): Promise<string> {
    const { UploadId } = await this.client.send(
      new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: key, ContentType: contentType }),
      this.deadline(),
    );
    if (!UploadId) throw new Error('The object store returned no upload id');
    return UploadId;
  }

  async completeMultipart(key: string, uploadId: string, parts: readonly UploadedPart[]): Promise<void> {
    await this.client.send(
      new CompleteMultipartUploadCommand({
        Bucket: this.bucket,
        Key: key,
        UploadId: uploadId,
        MultipartUpload: {
          Parts: [...parts]
            .sort((a, b) => a.partNumber - b.partNumber)
            .map((p) => ({ PartNumber: p.partNumber, ETag: p.etag })),
        },
      }),
      this.deadline(),
    );
  }

  async abortMultipart(key: string, uploadId: string): Promise<void> {
    await this.client.send(
      new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId }),
      this.deadline(),
    );
  }

  /** Size, ETag and date of an object, or null when there is none at that key. */
  async head(key: string): Promise<StoredObject | null> {
    try {
      const head = await this.client.send(
        new HeadObjectCommand({ Bucket: this.bucket, Key: key }),
        this.deadline(),
      );
      return {
        size: head.ContentLength ?? 0,
        etag: head.ETag ?? null,
        lastModified: head.LastModified ?? new Date(),
      };
    } catch (error) {
      if (statusOf(error) === 404) return null;
      throw error;
    }
  }

  /**
   * The first `length` bytes of an object (fewer when it is shorter). Not for an empty object: a
   * range of it is unsatisfiable, and s3rver answers one with a byte it never sends.
   */
  async readStart(key: string, length: number): Promise<Uint8Array> {
    const { Body } = await this.client.send(
      new GetObjectCommand({ Bucket: this.bucket, Key: key, Range: `bytes=0-${length - 1}` }),
      this.deadline(),
    );
    return (await Body?.transformToByteArray()) ?? new Uint8Array();
  }

  /** Copies within the store: the bytes never pass through this process. */
  async copy(from: string, to: string): Promise<void> {
    await this.client.send(
      new CopyObjectCommand({
        Bucket: this.bucket,
        Key: to,
        CopySource: encodeURI(`${this.bucket}/${from}`),
      }),
      this.deadline(),
    );
  }

  /** Removes an object; removing one that is not there is not an error (S3 answers alike). */
  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }), this.deadline());
  }

  /** The store may start after us (compose, a cluster): wait for it a while rather than die at once. */
  async onModuleInit(attempts = 15): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.ensureBucket();
        break;
      } catch (error) {
        if (attempt >= attempts) throw error;
        this.logger.warn(`Object store not ready (${(error as Error).message}); retrying in 2 s`);
        await new Promise((resolve) => setTimeout(resolve, 2000));
      }
    }
    await this.allowBrowserUploads();
  }

  private deadline() {
    return { abortSignal: AbortSignal.timeout(this.deadlineMs) };
  }

  private async ensureBucket(): Promise<void> {
    try {
      await this.check();
    } catch (error) {
      if (statusOf(error) !== 404) throw error;
      await this.client.send(new CreateBucketCommand({ Bucket: this.bucket }), this.deadline());
      this.logger.log(`Created bucket ${this.bucket}`);
    }
  }

  /**
   * Browsers PUT to presigned URLs from the app's origin, so the bucket needs a CORS rule.
   * MinIO has no per-bucket CORS (it answers NotImplemented and takes MINIO_API_CORS_ALLOW_ORIGIN
   * instead), and a store may deny the call to our credentials: then the operator sets it, and
   * we say so rather than refuse to start.
   */
  private async allowBrowserUploads(): Promise<void> {
    try {
      await this.client.send(
        new PutBucketCorsCommand({
          Bucket: this.bucket,
          CORSConfiguration: {
            CORSRules: [
              {
                AllowedOrigins: this.config.S3_CORS_ORIGINS,
                AllowedMethods: ['PUT', 'GET', 'HEAD'],
                AllowedHeaders: ['*'],
                ExposeHeaders: ['ETag'],
                MaxAgeSeconds: 3600,
              },
            ],
          },
        }),
        this.deadline(),
      );
    } catch (error) {
      this.logger.warn(
        `Could not set the bucket's CORS rule (${(error as Error).name}): allow PUT from the app's origin in the store's own settings`,
      );
    }
  }

  onApplicationShutdown(): void {
    this.client.destroy();
    if (this.publicClient !== this.client) this.publicClient.destroy();
  }
}
