import {
  type ChannelType,
  credentialChannelTypes,
  serviceDeskChannelTypes,
  WEBHOOK_DELIVERY_HEADER,
  WEBHOOK_PAYLOAD_VERSION,
  WEBHOOK_SIGNATURE_HEADER,
} from '@cm/contracts';
import { CONFIG } from '@cm/platform';
import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { createTransport, type Transporter } from 'nodemailer';
import { type Config } from '../../config';
import { type ClaimedDelivery } from './delivery.repository';
import { openSecret, webhookSignature } from './secret-box';
import { SendError } from './send-error';
import { webhookUrlRefusal } from './webhook-url';
import { chatMessage, classText } from './chat-message';
import { IncidentSync } from './service-desk/incident-sync';
import { matrixPayload, slackPayload, teamsPayload } from './chat-payloads';
import { type TargetAnswer, WebhookFailure, WebhookTargets } from './webhook-targets';

export { SendError };

/**
 * The webhook body, version 1. `text` is what a person reads (Slack and Teams incoming webhooks
 * show it as the message); `url`, the room's screen, for an alert when ALERTS_APP_URL is set; the
 * rest is for receivers that do more. `class` and `urgent` are optional additions within
 * version 2 (docs/architecture.md, "Webhooks").
 */
export function webhookBody(delivery: ClaimedDelivery, appUrl?: string): string {
  const { kind, text, subject, data, alert, class: lesson, urgent } = delivery.content;
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
    ...(lesson ? { class: lesson } : {}),
    ...(urgent ? { urgent } : {}),
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
    private readonly incidents: IncidentSync,
  ) {}

  onModuleDestroy(): void {
    this.mail?.close();
  }

  /** Why a channel of this type cannot be used on this server, or null. */
  unavailable(type: ChannelType): string | null {
    if (type === 'email' && !this.config.SMTP_HOST) {
      return 'E-mail channels need an SMTP server: set SMTP_HOST and SMTP_FROM for the inventory service (see docs/operations.md)';
    }
    if (type === 'webhook' && !this.config.ALERTS_SECRET_KEY) {
      return 'Webhook channels need ALERTS_SECRET_KEY set for the inventory service, to keep their signing secrets (see docs/operations.md)';
    }
    if (credentialChannelTypes.includes(type) && !this.config.ALERTS_SECRET_KEY) {
      return `${typeNames[type]} channels need ALERTS_SECRET_KEY set for the inventory service, to keep their credentials sealed (see docs/operations.md)`;
    }
    return null;
  }

  async send(delivery: ClaimedDelivery): Promise<void> {
    const { channel } = delivery;
    const unavailable = this.unavailable(channel.type);
    if (unavailable) throw new SendError(unavailable);
    if (channel.type === 'email') return this.email(delivery);
    if (channel.type === 'webhook') return this.post(delivery);
    if (serviceDeskChannelTypes.includes(channel.type)) return this.incidents.deliver(delivery);
    const message = chatMessage(delivery, roomLink(delivery, this.config.ALERTS_APP_URL));
    if (channel.type === 'teams') return this.json('POST', channel.url!, {}, teamsPayload(message));
    if (channel.type === 'slack') return this.json('POST', channel.url!, {}, slackPayload(message));
    const token = this.credential(delivery, 'The access token');
    // The delivery id as the transaction id: a retry of a message the homeserver already took is
    // answered with the same event, not posted twice.
    const path = `/_matrix/client/v3/rooms/${encodeURIComponent(channel.settings.roomId!)}/send/m.room.message/${encodeURIComponent(delivery.id)}`;
    const headers = { authorization: `Bearer ${token}` };
    return this.json('PUT', joinUrl(channel.url!, path), headers, matrixPayload(message));
  }

  private async post(delivery: ClaimedDelivery): Promise<void> {
    const secret = this.credential(delivery, 'The signing secret');
    const body = webhookBody(delivery, this.config.ALERTS_APP_URL);
    await this.request('POST', delivery.channel.url!, body, {
      'user-agent': 'ClassroomMonitor-Webhook/1',
      [WEBHOOK_SIGNATURE_HEADER]: webhookSignature(secret, body, Math.floor(Date.now() / 1000)),
      [WEBHOOK_DELIVERY_HEADER]: delivery.id,
    });
  }

  private json(method: 'POST' | 'PUT', url: string, headers: Record<string, string>, payload: object) {
    return this.request(method, url, JSON.stringify(payload), {
      'user-agent': 'ClassroomMonitor/1',
      ...headers,
    });
  }

  /** The channel's sealed secret or credential, opened; a `SendError` saying what to do if it cannot be. */
  private credential(delivery: ClaimedDelivery, what: string): string {
    const { sealedSecret, id } = delivery.channel;
    try {
      return openSecret(this.config.ALERTS_SECRET_KEY!, sealedSecret!, id);
    } catch {
      throw new SendError(
        `${what} cannot be read with the current ALERTS_SECRET_KEY (was the key changed?); ${
          delivery.channel.type === 'webhook'
            ? 'delete the channel and add it again'
            : 'edit the channel and enter it again'
        }`,
      );
    }
  }

  /** One JSON request to a target; a 2xx is sent, anything else a `SendError` with its status alone. */
  private async request(
    method: 'POST' | 'PUT',
    url: string,
    body: string,
    headers: Record<string, string>,
  ): Promise<void> {
    const refusal = webhookUrlRefusal(url, this.config.ALERTS_WEBHOOK_ALLOWED_HOSTS);
    if (refusal) throw new SendError(refusal);
    let answer: TargetAnswer;
    try {
      // No redirect is followed (it could lead past the address checks): it is a failure to fix in the URL.
      answer = await this.targets.request(
        method,
        url,
        { 'content-type': 'application/json', ...headers },
        body,
      );
    } catch (error) {
      const word = error instanceof WebhookFailure ? error.word : 'connection failed';
      throw new SendError(`Could not reach ${hostOf(url)}: ${word}`);
    }
    // The status alone: the receiver's text (an error page, an internal service's answer) is not
    // this log's to keep or show.
    const { status, retryAfterMs } = answer;
    if (status < 200 || status > 299) {
      const wait = status === 429 || status === 503 ? retryAfterMs : null;
      throw new SendError(`${hostOf(url)} answered HTTP ${status}`, wait);
    }
  }

  private async email(delivery: ClaimedDelivery): Promise<void> {
    const { text, subject, class: lesson, urgent } = delivery.content;
    const title = subject ?? text.split('\n')[0].slice(0, 200);
    const body = lesson ? `${text}\nClass: ${classText(lesson)}` : text;
    try {
      await this.transport().sendMail({
        from: this.config.SMTP_FROM,
        to: delivery.channel.recipients!,
        subject: urgent ? `Urgent: ${title}` : title,
        text: withLink(body, roomLink(delivery, this.config.ALERTS_APP_URL)),
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

const typeNames: Record<ChannelType, string> = {
  webhook: 'Webhook',
  email: 'E-mail',
  teams: 'Teams',
  slack: 'Slack',
  matrix: 'Matrix',
  servicenow: 'ServiceNow',
  'jira-service-management': 'Jira Service Management',
};

/** A homeserver's URL (perhaps with a path of its own, behind a proxy) and an API path. */
const joinUrl = (base: string, path: string) => `${base.replace(/\/+$/, '')}${path}`;

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
