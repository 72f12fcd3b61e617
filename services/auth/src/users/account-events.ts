import { randomUUID } from 'node:crypto';
import { type AccountAccess, ErrorCode, events } from '@cm/contracts';
import { AppError, JetStreamConnection } from '@cm/platform';
import { Injectable, Logger } from '@nestjs/common';
import { type UserEntity } from './user.entity';

/** Who asked for a change, as the message said. */
export interface ChangeOrigin {
  actorId: string | null;
  /** The gateway's request, when the gateway asked (its audit interceptor records that one). */
  requestId?: string;
}

/** The fields of an account the audit follows. */
export const accessOf = (user: Pick<UserEntity, 'role' | 'isActive'>): AccountAccess => ({
  role: user.role,
  isActive: user.isActive,
});

/**
 * Tells the gateway's audit log of an account created, or of its role or active flag changed,
 * whoever sent the message: a client on the bus is recorded too, not only the gateway's routes.
 */
@Injectable()
export class AccountEvents {
  private readonly logger = new Logger(AccountEvents.name);

  constructor(private readonly jetstream: JetStreamConnection) {}

  /**
   * Called inside the change's transaction and resolves once the stream holds the event, so a
   * change whose event cannot be stored is rolled back rather than left out of the audit log.
   * `before`: the access as it was (null for a new account).
   */
  async changed(before: AccountAccess | null, after: UserEntity, origin: ChangeOrigin): Promise<void> {
    const now = accessOf(after);
    if (before && before.role === now.role && before.isActive === now.isActive) return;
    await this.jetstream
      .publish(
        events.accountChanged,
        {
          userId: after.id,
          username: after.username,
          actorId: origin.actorId,
          requestId: origin.requestId ?? null,
          before,
          after: now,
          at: new Date().toISOString(),
        },
        { msgId: randomUUID() },
      )
      .catch((error: unknown) => {
        this.logger.error(
          `Account change of ${after.id} not made: its audit event was not stored: ${String(error)}`,
        );
        throw new AppError(
          ErrorCode.SERVICE_UNAVAILABLE,
          'The change was not made, as the audit log could not be told of it. Try again shortly.',
        );
      });
  }
}
