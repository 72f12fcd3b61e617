import { type AlertDevice, jiraMappingSchema, serviceNowMappingSchema } from '@cm/contracts';
import { CONFIG } from '@cm/platform';
import { Inject, Injectable } from '@nestjs/common';
import { type Config } from '../../../config';
import { LiveEventsPublisher } from '../../../shared/live/live-events.publisher';
import { DELIVERY_CLOCK, type DeliveryClock } from '../delivery-clock';
import { TEST_KIND } from '../delivery-policy';
import { type ClaimedDelivery } from '../delivery.repository';
import { openSecret } from '../secret-box';
import { SendError } from '../send-error';
import { WebhookTargets } from '../webhook-targets';
import { type DeskChannel, type DeskClient, deviceLine, type Episode, episodeTitle } from './desk-client';
import { DeskHttp } from './desk-http';
import { IncidentRepository, type IncidentRow, type NotedDevice } from './incident.repository';
import { JiraClient } from './jira.client';
import { ServiceNowClient } from './servicenow.client';

/** The messages a service desk acts on: the room alert's opening, its changes and its end. */
export const INCIDENT_KINDS = new Set([
  'alert.opened',
  'alert.updated',
  'alert.recovered',
  'incident.reconcile',
]);

/** The correlation key of a room alert's incident: ServiceNow's `correlation_id`, a Jira label. */
export const correlationKey = (alertId: string) => `cm-${alertId}`;

type Channel = ClaimedDelivery['channel'];

/**
 * Keeps one incident per room alert in a service desk in step with the alert, whichever message
 * asked: it reads the alert as it is now, not as the message said, so messages that arrive out of
 * order or twice (a retry, the reconciliation) do what is still to be done and nothing more:
 * open (after looking for one with the key, in case an attempt opened it and died before
 * recording it), note the devices that joined or left, resolve once the alert ended. An incident
 * someone resolved or closed is left as it is.
 */
@Injectable()
export class IncidentSync {
  constructor(
    @Inject(CONFIG) private readonly config: Config,
    @Inject(DELIVERY_CLOCK) private readonly clock: DeliveryClock,
    private readonly incidents: IncidentRepository,
    private readonly targets: WebhookTargets,
    private readonly live: LiveEventsPublisher,
  ) {}

  async deliver(delivery: ClaimedDelivery): Promise<void> {
    const client = this.client(delivery.channel);
    if (delivery.kind === TEST_KIND) return client.test();
    const alertId = delivery.content.alert?.id ?? (delivery.content.data?.alertId as string | undefined);
    // A digest, a flapping device outside any alert, a fault: nothing for a service desk.
    if (!alertId || !INCIDENT_KINDS.has(delivery.kind)) return;
    await this.sync(delivery.channel, client, alertId, delivery.content.urgent === true);
  }

  private async sync(channel: Channel, client: DeskClient, alertId: string, urgent: boolean): Promise<void> {
    const found = await this.incidents.episode(alertId);
    const link =
      found && this.config.ALERTS_APP_URL ? `${this.config.ALERTS_APP_URL}/rooms/${found.roomId}` : null;
    const episode = found ? { ...found, link, urgent } : null;
    const now = this.clock.now();
    const lease = new Date(now.getTime() + this.config.ALERTS_SEND_TIMEOUT_MS * 8 + 10_000);
    const row = await this.incidents.claim(channel.id, alertId, correlationKey(alertId), now, lease);
    if (!row) throw new SendError('Another attempt is updating this incident; trying again shortly');
    let recorded = false;
    try {
      const after = await this.step(client, row, episode, alertId);
      if (after === 'forget') await this.incidents.forget(channel.id, alertId);
      else if (after) await this.incidents.record(channel.id, alertId, after);
      recorded = after !== null;
      // The room's screen shows the incident's number and state: an open one refetches its alert.
      if (found && after && after !== 'forget' && (after.state !== row.state || !row.remote)) {
        const { roomId, buildingId } = found;
        this.live.inventoryChanged({ kind: 'alert', action: 'updated', id: roomId, roomId, buildingId });
      }
    } finally {
      if (!recorded) await this.incidents.release(channel.id, alertId);
    }
  }

  /** What to do with the incident; what to record after (null: nothing changed). */
  private async step(
    client: DeskClient,
    row: IncidentRow,
    episode: Episode | null,
    alertId: string,
  ): Promise<IncidentRow | 'forget' | null> {
    const open = episode !== null && episode.closedAt === null;
    let current = row;
    if (!row.remote) {
      const existing = await client.find(correlationKey(alertId));
      if (!existing && !open) return 'forget';
      const remote = existing ?? (await client.create(episode!, correlationKey(alertId)));
      current = { remote, state: remote.closed ? 'closed' : 'open', noted: noted(episode?.devices ?? []) };
      if (open || current.state !== 'open') return current;
    }
    if (current.state !== 'open') return current === row ? null : current;
    const remote = await client.get(current.remote!);
    if (remote.closed) return { ...current, state: 'closed' };
    if (open) {
      const note = changeNote(current.noted, episode);
      if (!note) return current === row ? null : current;
      await client.note(remote, note);
      return { ...current, noted: noted(episode.devices) };
    }
    await client.resolve(remote, episode!);
    return { ...current, state: 'resolved' };
  }

  /**
   * The open incidents of ours the service desk has, up to `maxPages` pages: their correlation
   * keys and numbers. Each request within ALERTS_SEND_TIMEOUT_MS; throws `SendError` on a failure.
   */
  async openRemote(channel: DeskChannel, maxPages: number): Promise<{ key: string; number: string }[]> {
    const client = this.client(channel);
    const found: { key: string; number: string }[] = [];
    let page: string | null = null;
    for (let n = 0; n < maxPages; n++) {
      const answer = await client.openIncidents(page);
      found.push(...answer.incidents.map(({ key, incident }) => ({ key, number: incident.number })));
      page = answer.next;
      if (!page) break;
    }
    return found;
  }

  private client(channel: DeskChannel): DeskClient {
    let secret: string;
    try {
      secret = openSecret(this.config.ALERTS_SECRET_KEY!, channel.sealedSecret!, channel.id);
    } catch {
      throw new SendError(
        'The password or API token cannot be read with the current ALERTS_SECRET_KEY (was the key changed?); edit the channel and enter it again',
      );
    }
    const { username = '', mapping = {} } = channel.settings;
    const http = new DeskHttp(
      this.targets,
      this.config.ALERTS_WEBHOOK_ALLOWED_HOSTS,
      channel.url!,
      username,
      secret,
    );
    return channel.type === 'servicenow'
      ? new ServiceNowClient(http, serviceNowMappingSchema.parse(mapping))
      : new JiraClient(http, jiraMappingSchema.parse(mapping));
  }
}

const noted = (devices: AlertDevice[]): NotedDevice[] =>
  devices.map(({ id, name, address }) => ({ id, name, address }));

/** "Now offline: Display (10.1.2.4). Answering again: Projector (10.1.2.3). Room 204, …: 1 of 5 devices offline." */
export function changeNote(before: NotedDevice[], episode: Episode): string | null {
  const was = new Set(before.map((d) => d.id));
  const now = new Set(episode.devices.map((d) => d.id));
  const joined = episode.devices.filter((d) => !was.has(d.id));
  const left = before.filter((d) => !now.has(d.id));
  if (joined.length === 0 && left.length === 0) return null;
  return [
    joined.length ? `Now offline: ${joined.map(deviceLine).join(', ')}.` : null,
    left.length ? `Answering again: ${left.map(deviceLine).join(', ')}.` : null,
    `${episodeTitle(episode)}.`,
  ]
    .filter(Boolean)
    .join(' ');
}
