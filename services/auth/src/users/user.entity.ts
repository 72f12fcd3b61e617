import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

@Entity({ name: 'users' })
export class UserEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ type: 'varchar', length: 64 })
  username!: string;

  /** Null for an external user: they sign in through the identity provider only. */
  @Column({ name: 'password_hash', type: 'text', nullable: true })
  passwordHash!: string | null;

  @Column({ type: 'varchar', length: 254, nullable: true })
  email!: string | null;

  @Column({ name: 'first_name', type: 'varchar', length: 120, nullable: true })
  firstName!: string | null;

  @Column({ name: 'last_name', type: 'varchar', length: 120, nullable: true })
  lastName!: string | null;

  @Column({ type: 'varchar', length: 16, default: 'user' })
  role!: 'user' | 'admin';

  @Column({ name: 'is_active', type: 'smallint', default: 1 })
  isActive!: 0 | 1;

  /** Raised when the password changes or the account is deactivated: older sessions are over. */
  @Column({ name: 'session_version', type: 'integer', default: 0 })
  sessionVersion!: number;

  /** Sealed with AUTH_TOTP_KEY (never leaves this service); set once enrolment is confirmed. */
  @Column({ name: 'totp_secret', type: 'text', nullable: true })
  totpSecret!: string | null;

  @Column({ name: 'totp_pending_secret', type: 'text', nullable: true })
  totpPendingSecret!: string | null;

  /** The time step of the last code accepted: a code is accepted only for a later one. */
  @Column({ name: 'totp_last_step', type: 'bigint', nullable: true })
  totpLastStep!: string | null;

  /** The recovery codes' SHA-256 hashes not used yet. */
  @Column({ name: 'totp_recovery_codes', type: 'text', array: true, default: () => "'{}'" })
  totpRecoveryCodes!: string[];

  /** The OpenID Connect issuer and subject of an external user; both null for a local one. */
  @Column({ name: 'external_issuer', type: 'text', nullable: true })
  externalIssuer!: string | null;

  @Column({ name: 'external_subject', type: 'text', nullable: true })
  externalSubject!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
