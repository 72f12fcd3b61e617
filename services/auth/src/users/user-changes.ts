import { messages } from '@cm/contracts';
import { RpcClient } from '@cm/platform';
import { Injectable, Logger } from '@nestjs/common';

/**
 * Tells every gateway replica that a user changed or was deleted, so that none goes on using the
 * rights it kept of them. Sent after the change is committed and before the caller hears of it.
 */
@Injectable()
export class UserChanges {
  private readonly logger = new Logger(UserChanges.name);

  constructor(private readonly rpc: RpcClient) {}

  async announce(id: string): Promise<void> {
    try {
      await this.rpc.notify(messages.auth.userChanged, { id });
    } catch (error) {
      // The change stands: the gateways' kept copies expire within seconds even without the notice.
      this.logger.warn(`Gateways not told of the change of user ${id}: ${String(error)}`);
    }
  }
}
