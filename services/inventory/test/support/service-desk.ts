import { type Alert, type ChannelCreateInput, type DeliveryContent, messages } from '@cm/contracts';
import { eventually } from '@cm/platform/testing';
import { DeliveryRepository } from '../../src/alerting/notifications/delivery.repository';
import { DeliveryRelay } from '../../src/alerting/notifications/delivery.relay';
import { IncidentReconciler } from '../../src/alerting/notifications/service-desk/incident-reconciler';
import { channelsTestEnv, deliveryRow } from '../receivers';
import { type InventoryUnderTest, sql } from '../support';

export const appUrl = 'https://monitor.campus.edu';

/**
 * Inventory's settings for the service-desk tests: a short send timeout, for the fake that hangs
 * (every call to a desk is idempotent by design), long enough for the other replica to try while
 * the fake holds a create back.
 */
export const serviceDeskEnv = (): Record<string, string> => ({
  ...channelsTestEnv(),
  ALERTS_APP_URL: appUrl,
  ALERTS_SEND_TIMEOUT_MS: '4000',
});

/** Lines as the Atlassian Document Format has them: a paragraph each. */
export const doc = (...lines: string[]) => ({
  type: 'doc',
  version: 1,
  content: lines.map((text) => ({ type: 'paragraph', content: [{ type: 'text', text }] })),
});

/** The text of an Atlassian document: its paragraphs, a line each. */
export const textOf = (body: unknown) =>
  (body as ReturnType<typeof doc>).content.map((p) => p.content.map((t) => t.text).join('')).join('\n');

/** A fake desk as a channel form needs it: its address and its integration user. */
interface FakeDesk {
  http: { url: string };
  credentials: { username: string; secret: string };
}

/**
 * Rooms with an open alert, the alert's messages to a channel and the desk channels, for one
 * file's inventory (call it at the top of the file's `describe`). The reconciliation's timer is
 * stopped: its rounds here are the tests' own. On a clock a test has moved, it would claim a round
 * of its own whenever a test outlasts a minute on a loaded machine (an extra listing, a round
 * found already done).
 */
export function serviceDeskKit(inventory: InventoryUnderTest) {
  const { send, make } = inventory;
  let rooms = 0;
  beforeAll(() => inventory.sut.app.get(IncidentReconciler).beforeApplicationShutdown());

  const row = (id: string) => deliveryRow(inventory.sut, id);
  const sent = (id: string) => eventually(async () => expect((await row(id)).state).toBe('sent'), 30_000);
  /** The pending delivery due now, and the relay told (a retry without waiting its back-off). */
  const due = async (id: string) => {
    await sql(
      inventory.sut,
      "UPDATE inv.deliveries SET next_attempt_at = now() WHERE id = $1 AND state = 'pending'",
      [id],
    );
    inventory.sut.app.get(DeliveryRelay).kick();
  };

  /** Room 2xx of Science Hall with two addressed devices. */
  async function place() {
    const building = await make.building({ name: `Science Hall ${++rooms}` });
    const room = await make.room(building.id, { name: `20${rooms}` });
    const display = await make.equipment(room.id, { name: 'Display', ipAddress: `10.9.${rooms}.4` });
    const projector = await make.equipment(room.id, { name: 'Projector', ipAddress: `10.9.${rooms}.3` });
    return { room, building, display, projector, place: `Room 20${rooms}, ${building.name}` };
  }

  /** An alert naming the display, in a new room or, after it recovered, in the same one again. */
  async function episode(where?: Awaited<ReturnType<typeof place>>) {
    const at = where ?? (await place());
    const device = (e: typeof at.display) => ({
      id: e.id,
      name: e.name,
      address: e.ipAddress,
      status: 'inactive',
      since: null,
    });
    const [{ id }] = await sql<{ id: string }>(
      inventory.sut,
      'INSERT INTO inv.alerts (room_id, opened_at, devices) VALUES ($1, $2, $3) RETURNING id',
      [at.room.id, '2026-11-24T19:59:00.000Z', JSON.stringify([device(at.display)])],
    );
    const setDevices = (devices: (typeof at.display)[]) =>
      sql(inventory.sut, 'UPDATE inv.alerts SET devices = $2 WHERE id = $1', [
        id,
        JSON.stringify(devices.map(device)),
      ]);
    const close = () =>
      sql(inventory.sut, 'UPDATE inv.alerts SET closed_at = now(), devices = $2 WHERE id = $1', [id, '[]']);
    return { ...at, alertId: id, setDevices, close };
  }

  /** A message of the alert to the channel, as the engine queues it: stored, then sent at once. */
  async function queue(channelId: string, alertId: string, kind: DeliveryContent['kind'], urgent = false) {
    const id = await queueQuietly(channelId, alertId, kind, urgent);
    inventory.sut.app.get(DeliveryRelay).kick();
    return id;
  }

  /** A message stored where no replica is told of it (their relays find it on their next round). */
  async function queueQuietly(
    channelId: string,
    alertId: string,
    kind: DeliveryContent['kind'],
    urgent = false,
  ) {
    const content = { kind, text: kind, alert: { id: alertId } as Alert, ...(urgent ? { urgent } : {}) };
    const [id] = await inventory.sut.app.get(DeliveryRepository).enqueue([{ channelId, alertId, content }]);
    return id;
  }

  /** A new alert's opening and its next message, queued at once (two relays' rounds may race); both sent. */
  async function twoAtOnce(channelId: string) {
    const e = await episode();
    const ids = await Promise.all([
      queue(channelId, e.alertId, 'alert.opened'),
      queue(channelId, e.alertId, 'alert.updated'),
    ]);
    for (const id of ids) await sent(id);
    return e;
  }

  const create = (form: ChannelCreateInput) => send(messages.inventory.createChannel, form);
  /** A channel to a fake ServiceNow, with its integration user. */
  const serviceNowChannel = (sn: FakeDesk, name: string, mapping?: Record<string, unknown>) =>
    create({
      name,
      type: 'servicenow',
      url: sn.http.url,
      username: sn.credentials.username,
      password: sn.credentials.secret,
      ...(mapping && { mapping }),
    });
  /** A channel to a fake Jira Service Management, with its account's API token. */
  const jiraChannel = (jira: FakeDesk, name: string, mapping: Record<string, unknown>) =>
    create({
      name,
      type: 'jira-service-management',
      url: jira.http.url,
      username: jira.credentials.username,
      token: jira.credentials.secret,
      mapping,
    });

  /** The channel's form saved again with another mapping (its password or token kept). */
  async function setMapping(channelId: string, mapping: Record<string, unknown>) {
    const [channel] = (await send(messages.inventory.listChannels)).filter((c) => c.id === channelId);
    return send(messages.inventory.updateChannel, {
      id: channelId,
      changes: {
        name: channel.name,
        type: channel.type,
        url: channel.url,
        username: channel.username,
        mapping,
      },
    });
  }

  return {
    row,
    sent,
    due,
    episode,
    queue,
    queueQuietly,
    twoAtOnce,
    serviceNowChannel,
    jiraChannel,
    setMapping,
  };
}
