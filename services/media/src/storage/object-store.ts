import { CONFIG, HealthService } from '@cm/platform';
import {
  CreateBucketCommand,
  type GetObjectCommand,
  HeadBucketCommand,
  PutBucketCorsCommand,
  type PutObjectCommand,
  S3Client,
  type S3ServiceException,
  type UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { type Config } from '../config';

export function createS3Client(config: Config, endpoint = config.S3_ENDPOINT): S3Client {
  return new S3Client({
    endpoint,
    region: config.S3_REGION,
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
    credentials: { accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY },
    requestHandler: { requestTimeout: config.S3_REQUEST_TIMEOUT_MS, connectionTimeout: 5000 },
    maxAttempts: 3,
  });
}

export const statusOf = (error: unknown) => (error as S3ServiceException).$metadata?.httpStatusCode;

type Presignable = UploadPartCommand | PutObjectCommand | GetObjectCommand;

/** The private bucket every media object lives in; created at start when missing. */
@Injectable()
export class ObjectStore implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(ObjectStore.name);
  readonly client: S3Client;
  /** Signs URLs for browsers, which may reach the store at another address than we do. */
  private readonly publicClient: S3Client;
  readonly bucket: string;
  /** Origins (scheme, host, port) under which URLs of this store are ours. */
  readonly endpoints: string[];
  readonly forcePathStyle: boolean;

  constructor(
    @Inject(CONFIG) private readonly config: Config,
    health: HealthService,
  ) {
    this.client = createS3Client(config);
    this.publicClient = config.S3_PUBLIC_ENDPOINT
      ? createS3Client(config, config.S3_PUBLIC_ENDPOINT)
      : this.client;
    this.bucket = config.S3_BUCKET;
    this.endpoints = [...new Set([config.S3_PUBLIC_ENDPOINT ?? config.S3_ENDPOINT, config.S3_ENDPOINT])];
    this.forcePathStyle = config.S3_FORCE_PATH_STYLE;
    health.register('s3', async () => {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    });
  }

  /** A URL the gateway (internal) or a browser (public) can use without credentials. */
  presign(command: Presignable, expiresInSeconds: number, audience: 'internal' | 'public'): Promise<string> {
    const client = audience === 'public' ? this.publicClient : this.client;
    // The SDK types each command's middleware by its own input, so a union of commands does not fit its generics.
    return getSignedUrl(client, command as never, { expiresIn: expiresInSeconds });
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

  private async ensureBucket(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    } catch (error) {
      if (statusOf(error) !== 404) throw error;
      await this.client.send(new CreateBucketCommand({ Bucket: this.bucket }));
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
