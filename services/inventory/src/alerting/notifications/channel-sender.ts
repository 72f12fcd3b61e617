import { WEBHOOK_DELIVERY_HEADER, WEBHOOK_PAYLOAD_VERSION, WEBHOOK_SIGNATURE_HEADER } from '@cm/contracts';
import { CONFIG } from '@cm/platform';
import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { createTransport, type Transporter } from 'nodemailer';
import { type Config } from '../../config';
import { type ClaimedDelivery } from './delivery.repository';
import { openSecret, webhookSignature } from './secret-box';
import { webhookUrlRefusal } from './webhook-url';
import { WebhookFailure, WebhookTargets } from './webhook-targets';

/** A send that failed, with a sentence for the delivery log. */
export class SendError extends Error {}

/**
 * The webhook body, version 1. `text` is what a person reads (Slack and Teams incoming webhooks
 * show it as the message); `url`, the room's screen, for an alert when ALERTS_APP_URL is set; the
 * rest is for receivers that do more.
 */
export function webhookBody(delivery: ClaimedDelivery, appUrl?: string): string {
  const { kind, text, subject, data, alert } = delivery.content;
  const url = roomLink(delivery, appUrl);
  return JSON.stringify({
    version: WEBHOOK_PAYLOAD_VERSION,
    id: delivery.id,
    kind,
    text,
    ...(url ? { url } : {}),
    ...(subject ? { subject } : {}),
    createdAt: delivery.createdAt,
    channel: { id: delivery.channel.id, name: delivery.channel.name },
    ...(data ? { data } : {}),
    ...(alert ? { alert } : {}),
  });
}

/** The room's screen, for a message about a room's alert when the app's address is known. */
export function roomLink(delivery: ClaimedDelivery, appUrl: string | undefined): string | undefined {
  const room = delivery.content.alert?.room;
  return appUrl && room ? `${appUrl}/rooms/${room.id}` : undefined;
}

/** A mail's text, its last line the link (mail readers make it clickable). */
const withLink = (text: string, url: string | undefined) => (url ? `${text}\n${url}` : text);

/** Sends one delivery over its channel, within ALERTS_SEND_TIMEOUT_MS; throws `SendError` on failure. */
@Injectable()
export class ChannelSender implements OnModuleDestroy {
  private mail?: Transporter;

  constructor(
    @Inject(CONFIG) private readonly config: Config,
    private readonly targets: WebhookTargets,
  ) {}

  onModuleDestroy(): void {
    this.mail?.close();
  }

  /** Why a channel of this type cannot be used on this server, or null. */
  unavailable(type: 'webhook' | 'email'): string | null {
    if (type === 'email' && !this.config.SMTP_HOST) {
      return 'E-mail channels need an SMTP server: set SMTP_HOST and SMTP_FROM for the inventory service (see docs/operations.md)';
    }
    if (type === 'webhook' && !this.config.ALERTS_SECRET_KEY) {
      return 'Webhook channels need ALERTS_SECRET_KEY set for the inventory service, to keep their signing secrets (see docs/operations.md)';
    }
    return null;
  }

  async send(delivery: ClaimedDelivery): Promise<void> {
    const { channel } = delivery;
    const unavailable = this.unavailable(channel.type);
    if (unavailable) throw new SendError(unavailable);
    if (channel.type === 'webhook') await this.post(delivery);
    else await this.email(delivery);
  }

  private async post(delivery: ClaimedDelivery): Promise<void> {
    const { url, sealedSecret, id: channelId } = delivery.channel;
    const refusal = webhookUrlRefusal(url!, this.config.ALERTS_WEBHOOK_ALLOWED_HOSTS);
    if (refusal) throw new SendError(refusal);
    let secret: string;
    try {
      secret = openSecret(this.config.ALERTS_SECRET_KEY!, sealedSecret!, channelId);
    } catch {
      throw new SendError(
        'The signing secret cannot be read with the current ALERTS_SECRET_KEY (was the key changed?); delete the channel and add it again',
      );
    }
    const body = webhookBody(delivery, this.config.ALERTS_APP_URL);
    let status: number;
    try {
      // No redirect is followed (it could lead past the address checks): it is a failure to fix in the URL.
      status = await this.targets.post(
        url!,
        {
          'content-type': 'application/json',
          'user-agent': 'ClassroomMonitor-Webhook/1',
          [WEBHOOK_SIGNATURE_HEADER]: webhookSignature(secret, body, Math.floor(Date.now() / 1000)),
          [WEBHOOK_DELIVERY_HEADER]: delivery.id,
        },
        body,
      );
    } catch (error) {
      const word = error instanceof WebhookFailure ? error.word : 'connection failed';
      throw new SendError(`Could not reach ${hostOf(url!)}: ${word}`);
    }
    // The status alone: the receiver's text (an error page, an internal service's answer) is not
    // this log's to keep or show.
    if (status < 200 || status > 299) throw new SendError(`${hostOf(url!)} answered HTTP ${status}`);
  }

  private async email(delivery: ClaimedDelivery): Promise<void> {
    const { text, subject } = delivery.content;
    try {
      await this.transport().sendMail({
        from: this.config.SMTP_FROM,
        to: delivery.channel.recipients!,
        subject: subject ?? text.split('\n')[0].slice(0, 200),
        text: withLink(text, roomLink(delivery, this.config.ALERTS_APP_URL)),
        headers: { [WEBHOOK_DELIVERY_HEADER]: delivery.id },
      });
    } catch (error) {
      throw new SendError(
        `The SMTP server ${this.config.SMTP_HOST} refused or did not answer: ${reason(error)}`,
      );
    }
  }

  private transport(): Transporter {
    const c = this.config;
    const timeout = c.ALERTS_SEND_TIMEOUT_MS;
    this.mail ??= createTransport({
      host: c.SMTP_HOST,
      port: c.SMTP_PORT,
      secure: c.SMTP_SECURE === 'tls',
      requireTLS: c.SMTP_SECURE === 'starttls',
      ignoreTLS: c.SMTP_SECURE === 'none',
      auth: c.SMTP_USER ? { user: c.SMTP_USER, pass: c.SMTP_PASSWORD } : undefined,
      connectionTimeout: timeout,
      greetingTimeout: timeout,
      socketTimeout: timeout,
      dnsTimeout: timeout,
    });
    return this.mail;
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'the webhook';
  }
}

function reason(error: unknown): string {
  const e = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return 'no answer in time';
  return e?.cause?.code ?? e?.cause?.message ?? e?.message ?? String(error);
}
