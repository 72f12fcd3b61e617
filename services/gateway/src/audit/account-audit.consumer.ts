import { setTimeout as sleep } from 'node:timers/promises';
import { type AccountChangedEvent, durableConsumers, events, streams } from '@cm/contracts';
import { CONFIG, type DeliveryMeta, JetStreamConnection, retryWithBackoff } from '@cm/platform';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { type Config } from '../config';
import { AuditRepository } from './audit.repository';

/**
 * How long an event the gateway asked for waits for the interceptor's own entry (written after
 * auth answers) before it is recorded here instead: the gateway that asked died in between, or a
 * request id was put in a message that did not come from a gateway.
 */
export const GATEWAY_ENTRY_WAIT_MS = 20_000;
const GATEWAY_ENTRY_POLL_MS = 250;

/** Where an entry of a change nobody made through the gateway says it came from. */
export const BUS_ADDRESS = 'NATS';

/**
 * Records auth's account events (an account created, a role or active flag changed) in the audit
 * log, so that a change sent to auth on the bus, past the gateway, is there too. A change the
 * gateway asked for is its interceptor's entry (with the person and the address), not a second one.
 * Replicas share the durable consumer, so each event is recorded by one of them.
 */
@Injectable()
export class AccountAuditConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(AccountAuditConsumer.name);
  private readonly stopped = new AbortController();
  private connection?: JetStreamConnection;
  private started?: Promise<void>;

  constructor(
    @Inject(CONFIG) private readonly config: Config,
    private readonly entries: AuditRepository,
  ) {}

  // In the background: the gateway answers (and says NATS is down) while NATS is unreachable.
  onApplicationBootstrap(): void {
    this.started = this.start();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped.abort();
    await this.started;
    await this.connection?.close();
  }

  private start(): Promise<void> {
    return retryWithBackoff(
      this.stopped.signal,
      async () => {
        this.connection ??= await JetStreamConnection.connectAs(this.config, 'gateway', 'audit');
        if (this.stopped.signal.aborted) return 'done';
        // The consumer reconnects by itself from here on.
        await this.connection.consume({
          stream: streams.accounts,
          durable: durableConsumers.gatewayAccounts,
          subject: events.accountChanged,
          ackWaitMs: GATEWAY_ENTRY_WAIT_MS + 30_000,
          handle: (event, meta) => this.record(event, meta),
        });
        return 'done';
      },
      (error, retryInMs) =>
        this.logger.warn(`Following account changes failed, retrying in ${retryInMs} ms: ${String(error)}`),
    );
  }

  async record(event: AccountChangedEvent, meta: DeliveryMeta): Promise<void> {
    if (event.requestId && (await this.gatewayRecorded(event.userId, event.requestId))) return;
    await this.entries.insert({
      at: new Date(event.at),
      actorId: event.actorId,
      actorName: null,
      apiTokenId: null,
      requestId: event.requestId ?? `auth:${meta.msgId ?? meta.streamSequence}`,
      clientAddress: BUS_ADDRESS,
      action: event.before ? 'update' : 'create',
      entityType: 'user',
      entityId: event.userId,
      before: event.before,
      after: { username: event.username, ...event.after },
    });
  }

  private async gatewayRecorded(userId: string, requestId: string): Promise<boolean> {
    const deadline = Date.now() + GATEWAY_ENTRY_WAIT_MS;
    for (;;) {
      if (await this.entries.has({ entityType: 'user', entityId: userId, requestId })) return true;
      if (Date.now() >= deadline || this.stopped.signal.aborted) return false;
      await sleep(GATEWAY_ENTRY_POLL_MS);
    }
  }
}
