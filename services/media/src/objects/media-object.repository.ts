import { queryRow, schemaNameOf } from '@cm/platform';
import { Injectable } from '@nestjs/common';
import { DataSource, In, LessThan, type Repository } from 'typeorm';
import { MediaObjectEntity } from './media-object.entity';

export type ObjectDetails = Pick<MediaObjectEntity, 'contentType' | 'size' | 'etag' | 'lastModified'>;

@Injectable()
export class MediaObjectRepository {
  private readonly objects: Repository<MediaObjectEntity>;

  constructor(private readonly dataSource: DataSource) {
    this.objects = dataSource.getRepository(MediaObjectEntity);
  }

  async createPending(key: string, ownerId: string | null, uploadId: string | null = null): Promise<void> {
    await this.objects.insert({ key, ownerId, uploadId, status: 'pending' });
  }

  /** A key a browser may PUT to, through a presigned link, until `linkExpiresAt`. */
  async createLink(key: string, ownerId: string | null, linkExpiresAt: Date): Promise<void> {
    await this.objects.insert({ key, ownerId, linkExpiresAt, status: 'pending' });
  }

  findByKey(key: string): Promise<MediaObjectEntity | null> {
    return this.objects.findOneBy({ key });
  }

  async registeredKeys(keys: string[]): Promise<string[]> {
    const rows = await this.objects.find({
      select: { key: true },
      where: { key: In(keys), status: 'registered' },
    });
    return rows.map((row) => row.key);
  }

  async markRegistered(key: string, details: ObjectDetails): Promise<void> {
    await this.objects.update({ key }, { ...details, status: 'registered', uploadId: null });
  }

  /** Records the validated copy of a presigned upload; the upload itself stays pending until swept. */
  async recordCopy(
    uploadKey: string,
    copy: string,
    ownerId: string | null,
    details: ObjectDetails,
  ): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      await manager.insert(MediaObjectEntity, { key: copy, ownerId, ...details, status: 'registered' });
      await manager.update(MediaObjectEntity, { key: uploadKey }, { registeredAs: copy });
    });
  }

  async remove(key: string): Promise<void> {
    await this.objects.delete({ key });
  }

  /**
   * Runs `sweep` over pending objects created before `before`, in one replica at a time: the
   * transaction-scoped advisory lock is skipped, not waited for, by the others. Rows whose
   * keys `sweep` returns are deleted. Null when another replica holds the lock.
   */
  async sweepPending(
    before: Date,
    limit: number,
    sweep: (objects: MediaObjectEntity[]) => Promise<string[]>,
  ): Promise<number | null> {
    return this.dataSource.transaction(async (manager) => {
      const schema = schemaNameOf(this.dataSource);
      const lock = await queryRow<{ locked: boolean }>(
        manager,
        'SELECT pg_try_advisory_xact_lock(hashtext($1)) AS locked',
        [`${schema}.cleanup`],
      );
      if (!lock?.locked) return null;
      const stale = await manager.find(MediaObjectEntity, {
        where: { status: 'pending', createdAt: LessThan(before) },
        order: { createdAt: 'ASC' },
        take: limit,
      });
      if (stale.length === 0) return 0;
      const done = await sweep(stale);
      if (done.length) await manager.delete(MediaObjectEntity, { key: In(done) });
      return done.length;
    });
  }
}
