import { CONFIG, HealthService } from '@cm/platform';
import {
  CreateBucketCommand,
  HeadBucketCommand,
  S3Client,
  type S3ServiceException,
} from '@aws-sdk/client-s3';
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

/** The private bucket every media object lives in; created at start when missing. */
@Injectable()
export class ObjectStore implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(ObjectStore.name);
  readonly client: S3Client;
  readonly bucket: string;

  constructor(@Inject(CONFIG) config: Config, health: HealthService) {
    this.client = createS3Client(config);
    this.bucket = config.S3_BUCKET;
    health.register('s3', async () => {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    });
  }

  /** The store may start after us (compose, a cluster): wait for it a while rather than die at once. */
  async onModuleInit(attempts = 15): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.ensureBucket();
        return;
      } catch (error) {
        if (attempt >= attempts) throw error;
        this.logger.warn(`Object store not ready (${(error as Error).message}); retrying in 2 s`);
        await new Promise((resolve) => setTimeout(resolve, 2000));
      }
    }
  }

  private async ensureBucket(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    } catch (error) {
      const status = (error as S3ServiceException).$metadata?.httpStatusCode;
      if (status !== 404) throw error;
      await this.client.send(new CreateBucketCommand({ Bucket: this.bucket }));
      this.logger.log(`Created bucket ${this.bucket}`);
    }
  }

  onApplicationShutdown(): void {
    this.client.destroy();
  }
}
