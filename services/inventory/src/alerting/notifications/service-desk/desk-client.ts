import { type AlertDevice, type AlertSeverity, type ChannelType } from '@cm/contracts';

/** A service desk channel as its client needs it: where, as whom, and how alerts are written. */
export interface DeskChannel {
  id: string;
  name: string;
  type: ChannelType;
  url: string | null;
  /** The password or API token, sealed with ALERTS_SECRET_KEY. */
  sealedSecret: string | null;
  settings: { username?: string; mapping?: Record<string, unknown> };
}

/** A room's alert as a service desk is told of it. */
export interface Episode {
  alertId: string;
  roomId: string;
  /** "Room 204, Science Hall". */
  place: string;
  openedAt: string;
  closedAt: string | null;
  monitored: number;
  devices: AlertDevice[];
  /** The room's screen, when ALERTS_APP_URL is set. */
  link: string | null;
  /** The message was urgent: a class is in the room or about to start. */
  urgent?: boolean;
}

/** An incident (a ServiceNow incident, a Jira work item) as we keep and link it. */
export interface RemoteIncident {
  /** sys_id, or the issue key. */
  id: string;
  /** INC0010001, AV-12. */
  number: string;
  url: string;
  /** Resolved, closed or cancelled, by whoever. */
  closed: boolean;
}

/** What the incident sync asks of a service desk; each call throws `SendError` on failure. */
export interface DeskClient {
  /** A read as the integration user: the test button's check of the URL and credentials. */
  test(): Promise<void>;
  /** The incident opened with this correlation key, if any. */
  find(key: string): Promise<RemoteIncident | null>;
  /** Its state now. */
  get(incident: RemoteIncident): Promise<RemoteIncident>;
  create(episode: Episode, key: string): Promise<RemoteIncident>;
  /** A work note (ServiceNow) or internal comment (Jira). */
  note(incident: RemoteIncident, text: string): Promise<void>;
  resolve(incident: RemoteIncident, episode: Episode): Promise<void>;
  /**
   * One page of the service desk's open incidents that carry a correlation key of ours (`cm-…`),
   * oldest first, from `page` (null: the first); `next` is null after the last.
   */
  openIncidents(page: string | null): Promise<OpenPage>;
}

/** A page of open incidents with their correlation keys. */
export interface OpenPage {
  incidents: { key: string; incident: RemoteIncident }[];
  next: string | null;
}

/** How many open incidents one listing request asks for. */
export const OPEN_PAGE_SIZE = 100;

/** The prefix of every correlation key we give (`cm-<alert id>`). */
export const KEY_PREFIX = 'cm-';

/** Every monitored device offline, or a class in the room now or soon (urgent), is high; else medium. */
export const severityOf = (e: Episode): AlertSeverity =>
  e.urgent || e.devices.length >= e.monitored ? 'high' : 'medium';

export const deviceLine = (d: { name: string; address: string | null }) =>
  d.address ? `${d.name} (${d.address})` : d.name;

/** "Room 204, Science Hall: 2 of 5 devices offline". */
export const episodeTitle = (e: Episode) =>
  `${e.place}: ${e.devices.length} of ${e.monitored} device${e.monitored === 1 ? '' : 's'} offline`;

/** The incident's description: the devices, since when, and the link to the room. */
export function episodeText(e: Episode): string {
  const lines = e.devices.map(
    (d) => `- ${deviceLine(d)}: ${d.status === 'partial' ? 'partly answering' : 'offline'}`,
  );
  return [
    `${episodeTitle(e)}, since ${e.openedAt}.`,
    ...lines,
    ...(e.link ? [`Room in Classroom Monitor: ${e.link}`] : []),
    'Raised by Classroom Monitor; it resolves this incident when the room answers again.',
  ].join('\n');
}
