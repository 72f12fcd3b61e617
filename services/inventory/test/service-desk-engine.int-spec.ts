import { messages } from '@cm/contracts';
import { type JetStreamConnection } from '@cm/platform';
import { eventually } from '@cm/platform/testing';
import { channelsTestEnv } from './receivers';
import { inventoryUnderTest, monitorOf } from './support';
import { publishSweep, type SweptCheck } from './support/status-sweep';
import { slackMessageSchema } from './support/chat-schemas';
import { startFakeChat } from './support/fake-chat';
import { startFakeServiceNow } from './support/fake-servicenow';

const env: Record<string, string> = {
  ...channelsTestEnv(),
  ALERT_AFTER_FAILED_CHECKS: '2',
  ALERT_GROUP_WINDOW_MS: '500',
  ALERTS_APP_URL: 'https://monitor.campus.edu',
};

/**
 * The alert engine's own messages, from the monitor's checks, to a ServiceNow instance and a
 * Slack channel: the room's alert opens one incident and posts its devices, a device joining adds
 * a work note, the room's recovery resolves the incident.
 */
describe('room alerts in a service desk and a chat room, from the checks', () => {
  const inventory = inventoryUnderTest(env);
  const { make, send } = inventory;
  let monitor: JetStreamConnection;
  beforeAll(async () => {
    monitor = await monitorOf(inventory.namespace);
  });
  afterAll(() => monitor?.close());

  const sweep = (checks: SweptCheck[]) => publishSweep(monitor, inventory.namespace, checks);

  it('opens, notes and resolves one incident, and posts the room to Slack', async () => {
    const sn = await startFakeServiceNow();
    const slack = await startFakeChat();
    try {
      const building = await make.building({ name: 'Science Hall' });
      const room = await make.room(building.id, { name: '204' });
      const projector = await make.equipment(room.id, { name: 'Projector', ipAddress: '127.0.9.3' });
      const display = await make.equipment(room.id, { name: 'Display', ipAddress: '127.0.9.4' });
      await send(messages.inventory.createChannel, {
        name: 'AV desk',
        type: 'servicenow',
        url: sn.http.url,
        username: sn.credentials.username,
        password: sn.credentials.secret,
        buildingIds: [building.id],
      });
      await send(messages.inventory.createChannel, {
        name: 'AV chat',
        type: 'slack',
        url: slack.url('/services/T/B/x'),
        buildingIds: [building.id],
      });

      await sweep([[projector, 'inactive']]);
      await sweep([[projector, 'inactive']]);
      const incident = await eventually(async () => {
        expect(sn.incidents).toHaveLength(1);
        return sn.incidents[0];
      });
      expect(incident.fields).toMatchObject({
        short_description: 'Room 204, Science Hall: 1 of 2 devices offline',
        urgency: '2',
      });
      const posted = await eventually(async () => {
        expect(slack.requests).toHaveLength(1);
        return slackMessageSchema.parse(slack.requests[0].body);
      });
      expect(JSON.stringify(posted.blocks)).toContain(
        `<https://monitor.campus.edu/rooms/${room.id}|Open room 204>`,
      );

      await sweep([[display, 'inactive']]);
      await sweep([[display, 'inactive']]);
      await eventually(async () =>
        expect(incident.work_notes).toEqual([
          'Now offline: Display (127.0.9.4). Room 204, Science Hall: 2 of 2 devices offline.',
        ]),
      );

      await sweep([
        [projector, 'active'],
        [display, 'active'],
      ]);
      await eventually(async () => expect(incident.state).toBe('6'));
      expect(sn.incidents).toHaveLength(1);
      expect(await send(messages.inventory.listOpenAlerts, { roomId: room.id })).toEqual([]);
    } finally {
      await sn.http.stop();
      await slack.close();
    }
  });
});
