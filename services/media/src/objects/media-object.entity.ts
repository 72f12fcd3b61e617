import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

export type ObjectStatus = 'pending' | 'registered';

@Entity({ name: 'objects' })
export class MediaObjectEntity {
  @PrimaryColumn({ type: 'varchar', length: 128 })
  key!: string;

  @Column({ name: 'owner_id', type: 'varchar', length: 64, nullable: true })
  ownerId!: string | null;

  @Column({ name: 'content_type', type: 'varchar', length: 64, nullable: true })
  contentType!: string | null;

  @Column({ type: 'integer', nullable: true })
  size!: number | null;

  @Column({ type: 'varchar', length: 128, nullable: true })
  etag!: string | null;

  @Column({ type: 'varchar', length: 16, default: 'pending' })
  status!: ObjectStatus;

  /** The S3 multipart upload of a streamed upload, until it completes. */
  @Column({ name: 'upload_id', type: 'text', nullable: true })
  uploadId!: string | null;

  /** Where a presigned upload was copied on registration (its URL could otherwise replace the bytes). */
  @Column({ name: 'registered_as', type: 'varchar', length: 128, nullable: true })
  registeredAs!: string | null;

  /** Until when the upload link issued for this key (a presigned PUT) may write it; null: no link. */
  @Column({ name: 'link_expires_at', type: 'timestamptz', nullable: true })
  linkExpiresAt!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'last_modified', type: 'timestamptz', nullable: true })
  lastModified!: Date | null;
}
