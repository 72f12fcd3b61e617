import {
  type ChannelTypeAvailability,
  channelTypes,
  credentialChannelTypes,
  credentialFields,
  serviceDeskChannelTypes,
  type Channel,
  type ChannelCreate,
  type ChannelCreated,
  type ChannelTestResult,
  type DeliveryPage,
  type DeliveryQuery,
  ErrorCode,
} from '@cm/contracts';
import { AppError, CONFIG } from '@cm/platform';
import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { type Config } from '../../config';
import { found } from '../../shared/database/not-found';
import { ChannelSender } from './channel-sender';
import { ChannelRepository } from './channel.repository';
import { TEST_KIND } from './delivery-policy';
import { decodeCursor, DeliveryRepository } from './delivery.repository';
import { DeliveryRelay } from './delivery.relay';
import { newWebhookSecret, sealSecret } from './secret-box';
import { WebhookTargets } from './webhook-targets';

/** The write-only credential the form carries for its type (access token, password, API token). */
const credentialOf = (channel: ChannelCreate): string | null =>
  channel.accessToken ?? channel.password ?? channel.token ?? null;

const credentialWords = {
  matrix: ['A Matrix channel needs an access token', 'Enter the access token again: the homeserver changed'],
  servicenow: [
    "A ServiceNow channel needs the integration user's password",
    "Enter the password again: the instance's URL changed",
  ],
  'jira-service-management': [
    'A Jira Service Management channel needs an API token',
    "Enter the API token again: the site's URL changed",
  ],
} as const;

function credentialMissing(channel: ChannelCreate, when: 'needs' | 'again'): AppError {
  const type = channel.type as keyof typeof credentialFields;
  const message = credentialWords[type][when === 'needs' ? 0 : 1];
  return new AppError(ErrorCode.VALIDATION_FAILED, message, [{ path: credentialFields[type], message }]);
}

const channelNotFound = (id: string) =>
  new AppError(
    ErrorCode.CHANNEL_NOT_FOUND,
    `No notification channel with id ${id}. It may have been deleted; reload the list.`,
  );

@Injectable()
export class NotificationsService {
  constructor(
    @Inject(CONFIG) private readonly config: Config,
    private readonly channels: ChannelRepository,
    private readonly deliveries: DeliveryRepository,
    private readonly relay: DeliveryRelay,
    private readonly sender: ChannelSender,
    private readonly targets: WebhookTargets,
  ) {}

  /** Each kind of channel, and why this server cannot send one (as a create would be refused). */
  types(): ChannelTypeAvailability[] {
    return channelTypes.map((type) => {
      const reason = this.sender.unavailable(type);
      return { type, available: reason === null, reason };
    });
  }

  list(): Promise<Channel[]> {
    return this.channels.list();
  }

  async create(channel: ChannelCreate): Promise<ChannelCreated> {
    const credential = credentialOf(channel);
    if (credentialChannelTypes.includes(channel.type) && !credential) {
      throw credentialMissing(channel, 'needs');
    }
    await this.check(channel);
    const id = randomUUID();
    const secret = channel.type === 'webhook' ? newWebhookSecret() : null;
    const sealed = this.sealed(id, secret ?? credential);
    return { ...(await this.channels.create(id, channel, sealed)), secret };
  }

  /** A secret or credential sealed to its channel's row; null for none. */
  private sealed(id: string, value: string | null): string | null {
    return value ? sealSecret(this.config.ALERTS_SECRET_KEY!, value, id) : null;
  }

  async update(id: string, channel: ChannelCreate): Promise<Channel> {
    const current = found(await this.channels.get(id), () => channelNotFound(id));
    if (current.type !== channel.type) {
      // A webhook made from an e-mail channel would need a secret nobody was shown.
      throw new AppError(
        ErrorCode.VALIDATION_FAILED,
        `A channel's type cannot change (this one is ${current.type}); add a new channel instead`,
        [{ path: 'type', message: `Type must stay ${current.type}` }],
      );
    }
    const credential = credentialOf(channel);
    if (!credential && credentialChannelTypes.includes(channel.type)) {
      // A kept credential goes only where it went before: one typed for a homeserver or an
      // instance is not handed to another by an edit of the URL.
      if (new URL(channel.url!).origin !== new URL(current.url!).origin) {
        throw credentialMissing(channel, 'again');
      }
    }
    await this.check(channel);
    const sealed = this.sealed(id, credential);
    return found(await this.channels.update(id, channel, sealed), () => channelNotFound(id));
  }

  /**
   * A new secret for a webhook whose receiver lost it, or that leaked. Deliveries not sent yet are
   * signed with the new one when they go.
   */
  async rotateSecret(id: string): Promise<ChannelCreated> {
    const channel = found(await this.channels.get(id), () => channelNotFound(id));
    if (channel.type !== 'webhook') {
      throw new AppError(ErrorCode.VALIDATION_FAILED, 'Only webhook channels have a signing secret');
    }
    const unavailable = this.sender.unavailable(channel.type);
    if (unavailable) throw new AppError(ErrorCode.CHANNEL_UNAVAILABLE, unavailable);
    const secret = newWebhookSecret();
    const sealed = sealSecret(this.config.ALERTS_SECRET_KEY!, secret, id);
    return { ...found(await this.channels.setSecret(id, sealed), () => channelNotFound(id)), secret };
  }

  async delete(id: string): Promise<void> {
    if (!(await this.channels.delete(id))) throw channelNotFound(id);
  }

  /**
   * Sends a test message now, through the delivery log like any other, but claimed by this call
   * so that the answer can tell how it went. A send still under way when the caller's request
   * would time out is answered as sending; it finishes (and is logged) all the same.
   */
  async test(id: string): Promise<ChannelTestResult> {
    const channel = found(await this.channels.get(id), () => channelNotFound(id));
    const unavailable = this.sender.unavailable(channel.type);
    if (unavailable) throw new AppError(ErrorCode.CHANNEL_UNAVAILABLE, unavailable);
    const claimed = await this.deliveries.insertClaimed(
      id,
      {
        kind: TEST_KIND,
        subject: `Classroom Monitor test: ${channel.name}`,
        text: `Test message from Classroom Monitor: alerts sent to "${channel.name}" arrive here.`,
      },
      this.relay.leaseMs,
    );
    const answerWithinMs = Math.max(500, this.config.NATS_REQUEST_TIMEOUT_MS - 1000);
    let timer: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([
      this.relay.deliver(claimed),
      new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), answerWithinMs).unref())),
    ]).finally(() => clearTimeout(timer));
    const delivery = (await this.deliveries.get(claimed.id))!;
    const message =
      outcome === null
        ? `Still sending to "${channel.name}"; the delivery log shows how it goes.`
        : outcome.state === 'sent'
          ? serviceDeskChannelTypes.includes(channel.type)
            ? `"${channel.name}" answered: its user can read incidents (the test opens none).`
            : `Test message sent to "${channel.name}".`
          : `The test message to "${channel.name}" failed: ${delivery.lastError ?? 'unknown error'}`;
    return { delivery, message };
  }

  listDeliveries(query: DeliveryQuery): Promise<DeliveryPage> {
    const after = query.cursor ? decodeCursor(query.cursor) : null;
    if (query.cursor && !after) {
      throw new AppError(ErrorCode.VALIDATION_FAILED, 'cursor must be a nextCursor from a previous page', [
        { path: 'cursor', message: 'cursor must be a nextCursor from a previous page' },
      ]);
    }
    return this.deliveries.page(query, after);
  }

  /** What the schema cannot know: this server's set-up, and the buildings named. */
  private async check(channel: ChannelCreate): Promise<void> {
    const unavailable = this.sender.unavailable(channel.type);
    if (unavailable) throw new AppError(ErrorCode.CHANNEL_UNAVAILABLE, unavailable);
    if (channel.url) {
      const refusal = await this.targets.refusal(channel.url);
      if (refusal) {
        throw new AppError(ErrorCode.VALIDATION_FAILED, refusal, [{ path: 'url', message: refusal }]);
      }
    }
    if (channel.buildingIds) {
      const missing = await this.channels.missingBuildings(channel.buildingIds);
      if (missing.length > 0) {
        const message = `No building with id ${missing.join(', ')}. It may have been deleted; reload the list.`;
        throw new AppError(ErrorCode.VALIDATION_FAILED, message, [{ path: 'buildingIds', message }]);
      }
    }
  }
}
