import { type AlertClass, type AlertDevice } from '@cm/contracts';
import { type ClaimedDelivery } from './delivery.repository';

/** How a message reads at a glance: a fault, its end, or neither (a test, a digest). */
export type ChatTone = 'problem' | 'recovered' | 'info';

/** A device line: its name, address, what is wrong, and what cannot be reached behind it. */
export interface ChatDevice {
  name: string;
  address: string | null;
  status: AlertDevice['status'];
  since: string | null;
  behind: string[];
}

/**
 * One message as the chat channels show it, whatever the room (Teams, Slack, Matrix): a title, the
 * room and building, its devices, a link to the room's screen, and the class in the room once
 * class schedules fill it in. Built from a delivery's content alone, so a retry shows the same.
 */
export interface ChatMessage {
  kind: string;
  tone: ChatTone;
  /** The first line: "Room 204, Science Hall: 2 of 5 devices offline". */
  title: string;
  /** The whole text, for a fallback (Slack's notification, Matrix's plain body). */
  text: string;
  /** What follows the title when there are no devices to list (a test, a digest, a recovery). */
  detail: string | null;
  room: string | null;
  building: string | null;
  devices: ChatDevice[];
  /** The room's screen, when ALERTS_APP_URL is set. */
  link: string | null;
  class: AlertClass | null;
}

const PROBLEM_KINDS = new Set(['alert.opened', 'alert.updated', 'alert.flapping', 'fault.opened']);
const RECOVERED_KINDS = new Set(['alert.recovered', 'fault.recovered']);

export function chatMessage(delivery: ClaimedDelivery, link: string | undefined): ChatMessage {
  const { kind, text, subject, alert } = delivery.content;
  const first = (subject ?? text.split('\n')[0]).trim();
  const title = delivery.content.urgent ? `Urgent: ${first}` : first;
  const showDevices = Boolean(alert) && !RECOVERED_KINDS.has(kind);
  const devices = showDevices ? (alert?.devices ?? []).map(deviceLine) : [];
  const rest = text.startsWith(first) ? text.slice(first.length).replace(/^[\s—:-]+/, '') : text;
  return {
    kind,
    tone: PROBLEM_KINDS.has(kind) ? 'problem' : RECOVERED_KINDS.has(kind) ? 'recovered' : 'info',
    title,
    text,
    detail: devices.length > 0 || !rest ? null : rest,
    room: alert?.room.name ?? null,
    building: alert?.building.name ?? null,
    devices,
    link: link ?? null,
    class: delivery.content.class ?? null,
  };
}

function deviceLine(device: AlertDevice): ChatDevice {
  return {
    name: device.name,
    address: device.address,
    status: device.status,
    since: device.since,
    behind: (device.behind ?? []).map((b) => (b.address ? `${b.name} (${b.address})` : b.name)),
  };
}

const statusWords: Record<AlertDevice['status'], string> = {
  inactive: 'offline',
  partial: 'partly answering',
  maintenance: 'in maintenance',
  active: 'online',
};

/** "Display (10.1.2.4): offline", and what is unreachable behind it. */
export function deviceText(device: ChatDevice): string {
  const name = device.address ? `${device.name} (${device.address})` : device.name;
  const behind = device.behind.length ? `; unreachable behind it: ${device.behind.join(', ')}` : '';
  return `${name}: ${statusWords[device.status]}${behind}`;
}

/** "Physics 101, 09:00–10:30 UTC": the class, its times in UTC (a reader's zone is unknown here). */
export function classText(c: AlertClass): string {
  const time = (iso: string) => iso.slice(11, 16);
  const end = c.endsAt ? `–${time(c.endsAt)}` : '';
  return `${c.title}, ${time(c.startsAt)}${end} UTC`;
}
