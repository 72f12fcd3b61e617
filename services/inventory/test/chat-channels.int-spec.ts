import { type ChannelCreateInput, ErrorCode, messages } from '@cm/contracts';
import { eventually } from '@cm/platform/testing';
import { DeliveryRepository } from '../src/alerting/notifications/delivery.repository';
import { DeliveryRelay } from '../src/alerting/notifications/delivery.relay';
import { channelsTestEnv, deliveryRow } from './receivers';
import { openedContent, roomId } from './support/chat-fixtures';
import { matrixTextSchema, slackMessageSchema, teamsWorkflowsSchema } from './support/chat-schemas';
import { startFakeChat } from './support/fake-chat';
import { failureOf, inventoryUnderTest, sql } from './support';

const appUrl = 'https://monitor.campus.edu';
/** Room 204 of Science Hall, two devices down, Physics 101 on. */
const opened = openedContent();

describe('Teams, Slack and Matrix channels', () => {
  const env = { ...channelsTestEnv(), ALERTS_APP_URL: appUrl };
  const inventory = inventoryUnderTest(env);
  const { send } = inventory;
  type Form = Omit<ChannelCreateInput, 'name'> & { name?: string };
  const create = (over: Form) => send(messages.inventory.createChannel, { name: 'AV chat', ...over });
  const row = (id: string) => deliveryRow(inventory.sut, id);
  /** Queues the alert message to a channel and sends what is due. */
  const alert = async (channelId: string) => {
    const [id] = await inventory.sut.app.get(DeliveryRepository).enqueue([{ channelId, content: opened }]);
    inventory.sut.app.get(DeliveryRelay).kick();
    return id;
  };

  it('posts an Adaptive Card to a Teams Workflows webhook: room, building, class, devices, a link to the room', async () => {
    const teams = await startFakeChat({ status: 202 });
    try {
      const channel = await create({ type: 'teams', url: teams.url('/workflows/abc/triggers/manual/run') });
      expect(channel).toMatchObject({ type: 'teams', secret: null, host: `127.0.0.1:${teams.port}` });
      expect((await send(messages.inventory.testChannel, { id: channel.id })).delivery.state).toBe('sent');

      const id = await alert(channel.id);
      await eventually(async () => expect((await row(id)).state).toBe('sent'));
      expect(teams.requests.map((r) => [r.method, r.path])).toEqual([
        ['POST', '/workflows/abc/triggers/manual/run'],
        ['POST', '/workflows/abc/triggers/manual/run'],
      ]);
      const card = teamsWorkflowsSchema.parse(teams.requests[1].body).attachments[0].content;
      expect(card.body).toEqual([
        expect.objectContaining({
          text: 'Room 204, Science Hall: 2 of 5 devices offline',
          color: 'Attention',
        }),
        {
          type: 'FactSet',
          facts: [
            { title: 'Room', value: '204' },
            { title: 'Building', value: 'Science Hall' },
            { title: 'Class', value: 'Physics 101, 20:00–21:30 UTC' },
          ],
        },
        expect.objectContaining({ text: 'Display (10.1.2.4): offline' }),
        expect.objectContaining({ text: 'Projector (10.1.2.3): partly answering' }),
      ]);
      expect(card.actions).toEqual([
        { type: 'Action.OpenUrl', title: 'Open room 204', url: `${appUrl}/rooms/${roomId}` },
      ]);
    } finally {
      await teams.close();
    }
  });

  it("posts Block Kit (room, building, class, devices, link) to a Slack incoming webhook, and waits what a 429's Retry-After asks", async () => {
    const slack = await startFakeChat();
    try {
      const channel = await create({ type: 'slack', url: slack.url('/services/T000/B000/XXXX') });
      slack.answers.push({ status: 429, headers: { 'retry-after': '120' } });
      const id = await alert(channel.id);

      const waiting = await eventually(async () => {
        const r = await row(id);
        expect(r).toMatchObject({ state: 'pending', attempts: 1 });
        return r;
      });
      expect(waiting.last_error).toBe(`127.0.0.1:${slack.port} answered HTTP 429`);
      // The retry policy alone would try again within a second (channelsTestEnv).
      expect(waiting.next!.getTime() - Date.now()).toBeGreaterThan(60_000);
      const body = slackMessageSchema.parse(slack.requests[0].body);
      expect(body.text).toBe(opened.text);
      expect(JSON.stringify(body.blocks)).toContain(`<${appUrl}/rooms/${roomId}|Open room 204>`);
      expect(body.blocks[1]).toEqual({
        type: 'section',
        fields: [
          { type: 'mrkdwn', text: '*Room*\n204' },
          { type: 'mrkdwn', text: '*Building*\nScience Hall' },
          { type: 'mrkdwn', text: '*Class*\nPhysics 101, 20:00–21:30 UTC' },
        ],
      });
      expect(JSON.stringify(body.blocks)).toContain('• Display (10.1.2.4): offline');
    } finally {
      await slack.close();
    }
  });

  it('sends a Matrix room message with the delivery id as transaction id, so a retry is one event', async () => {
    const matrix = await startFakeChat();
    try {
      const token = 'syt_YXZib3Q_secretsecret_0abc12';
      const channel = await create({
        type: 'matrix',
        url: matrix.url('/'),
        roomId: '!AbCdEf:matrix.campus.edu',
        accessToken: token,
      });
      expect(channel).toMatchObject({ type: 'matrix', roomId: '!AbCdEf:matrix.campus.edu', secret: null });
      const listed = JSON.stringify(await send(messages.inventory.listChannels));
      const [stored] = await sql<{ secret: string; settings: object }>(
        inventory.sut,
        'SELECT secret, settings FROM inv.notification_channels WHERE id = $1',
        [channel.id],
      );
      expect(listed + JSON.stringify(stored)).not.toContain('secretsecret');

      // The homeserver takes the message but the answer is lost (a 502 from its proxy): the retry
      // sends the same transaction, which the homeserver answers without posting again.
      matrix.answers.push({ status: 502 });
      const id = await alert(channel.id);
      await eventually(async () => expect((await row(id)).state).toBe('sent'));
      const path = `/_matrix/client/v3/rooms/!AbCdEf%3Amatrix.campus.edu/send/m.room.message/${id}`;
      expect(matrix.requests.map((r) => [r.method, r.path.replace('%21', '!')])).toEqual([
        ['PUT', path],
        ['PUT', path],
      ]);
      expect(matrix.requests[0].headers.authorization).toBe(`Bearer ${token}`);
      expect(matrix.events).toBe(1);
      const event = matrixTextSchema.parse(matrix.requests[1].body);
      expect(event.formatted_body).toContain(
        '<p><strong>Room:</strong> 204<br><strong>Building:</strong> Science Hall<br><strong>Class:</strong> Physics 101, 20:00–21:30 UTC</p>',
      );
      expect(event.formatted_body).toContain('<li>Display (10.1.2.4): offline</li>');
      expect(event.formatted_body).toContain(`<a href="${appUrl}/rooms/${roomId}">Open room 204</a>`);
    } finally {
      await matrix.close();
    }
  });

  it('keeps a Matrix token through an edit, but not to another homeserver, and checks the form', async () => {
    const matrix = await startFakeChat();
    try {
      const form = { type: 'matrix', url: matrix.url(), roomId: '!room:campus.edu' } as const;
      expect(await failureOf(create(form))).toMatchObject({
        code: ErrorCode.VALIDATION_FAILED,
        errors: [{ path: 'accessToken', message: 'A Matrix channel needs an access token' }],
      });
      expect(await failureOf(create({ ...form, roomId: '#av:campus.edu', accessToken: 't' }))).toMatchObject({
        code: ErrorCode.VALIDATION_FAILED,
        errors: [{ path: 'roomId', message: expect.stringContaining('not an alias starting with "#"') }],
      });
      const channel = await create({ ...form, accessToken: 'first-token' });
      const edit = (changes: Partial<Form>) =>
        send(messages.inventory.updateChannel, {
          id: channel.id,
          changes: { name: 'Renamed', ...form, ...changes },
        });
      await edit({});
      await send(messages.inventory.testChannel, { id: channel.id });
      expect(matrix.requests.at(-1)!.headers.authorization).toBe('Bearer first-token');

      expect(await failureOf(edit({ url: 'http://127.0.0.1:1/' }))).toMatchObject({
        errors: [{ path: 'accessToken', message: 'Enter the access token again: the homeserver changed' }],
      });
      await edit({ accessToken: 'second-token' });
      await send(messages.inventory.testChannel, { id: channel.id });
      expect(matrix.requests.at(-1)!.headers.authorization).toBe('Bearer second-token');
    } finally {
      await matrix.close();
    }
  });

  it('refuses a chat URL at a loopback address not allowed, as it does a webhook', async () => {
    expect(await failureOf(create({ type: 'slack', url: 'http://127.0.0.2:8080/services/x' }))).toMatchObject(
      {
        code: ErrorCode.VALIDATION_FAILED,
        errors: [{ path: 'url', message: expect.stringContaining('an address in the loopback range') }],
      },
    );
    expect(await failureOf(create({ type: 'teams' }))).toMatchObject({
      errors: [{ path: 'url', message: 'A Teams channel needs its Workflows webhook URL' }],
    });
  });
});
