import { CONFIG } from '@cm/platform';
import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { type Config } from '../config';
import { MediaObjectRepository } from './media-object.repository';
import { ObjectsService } from './objects.service';

const BATCH = 200;

/**
 * Removes uploads nobody registered within the retention period (abandoned forms, failed
 * registrations, interrupted streams). Every replica schedules it; one at a time runs it.
 */
@Injectable()
export class UploadCleanupService implements OnApplicationBootstrap {
  private readonly logger = new Logger(UploadCleanupService.name);

  constructor(
    @Inject(CONFIG) private readonly config: Config,
    private readonly objects: MediaObjectRepository,
    private readonly service: ObjectsService,
    private readonly scheduler: SchedulerRegistry,
  ) {}

  onApplicationBootstrap(): void {
    const timer = setInterval(() => {
      this.sweep().catch((error: unknown) => this.logger.warn(`Upload cleanup failed: ${String(error)}`));
    }, this.config.MEDIA_CLEANUP_INTERVAL_MS);
    this.scheduler.addInterval('media-upload-cleanup', timer);
  }

  /** How many uploads were removed, or null when another replica is sweeping. */
  async sweep(): Promise<number | null> {
    const before = new Date(Date.now() - this.config.MEDIA_UPLOAD_RETENTION_MS);
    const removed = await this.objects.sweepPending(before, BATCH, async (stale) => {
      const done: string[] = [];
      for (const object of stale) {
        try {
          await this.service.discardUpload(object.key, object.uploadId);
          done.push(object.key);
        } catch (error) {
          this.logger.warn(`Could not remove abandoned upload ${object.key}: ${String(error)}`);
        }
      }
      return done;
    });
    if (removed) this.logger.log(`Removed ${removed} abandoned upload(s)`);
    return removed;
  }
}
