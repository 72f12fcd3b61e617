import { type DeliveryContent } from '@cm/contracts';
import { openedContent, physics, roomId, uuid } from '../../../test/support/chat-fixtures';
import {
  matrixTextSchema,
  slackMessageSchema,
  teamsWorkflowsSchema,
} from '../../../test/support/chat-schemas';
import { chatMessage } from './chat-message';
import { CHAT_MAX_DEVICES, matrixPayload, slackPayload, teamsPayload } from './chat-payloads';
import { type ClaimedDelivery } from './delivery.repository';

const link = `https://monitor.campus.edu/rooms/${roomId}`;

/** The alert message with `devices` devices, markup in the building's and the first one's names. */
function delivery(content: Partial<DeliveryContent>, devices = 2): ClaimedDelivery {
  const base = openedContent({
    building: 'Science <Hall> & Annex',
    devices: Array.from({ length: devices }, (_, i) => ({
      id: uuid(100 + i),
      name: i === 0 ? 'Display <!channel>' : `Projector ${i}`,
      address: `10.1.2.${i + 3}`,
      status: i === 0 ? ('inactive' as const) : ('partial' as const),
      since: '2026-11-24T19:58:30.000Z',
    })),
    class: null,
  });
  return {
    id: uuid(9),
    kind: content.kind ?? 'alert.opened',
    attempts: 1,
    createdAt: '2026-11-24T20:00:00.000Z',
    channel: {
      id: uuid(8),
      name: 'AV',
      type: 'slack',
      url: 'https://hooks.slack.com/services/T/B/x',
      recipients: null,
      enabled: true,
      sealedSecret: null,
      settings: {},
    },
    content: { ...base, ...content },
  };
}

describe('chat payloads', () => {
  const opened = chatMessage(delivery({ class: physics }), link);

  it('makes a Teams Workflows message with an Adaptive Card 1.4: room, building, class, devices, link', () => {
    const payload = teamsWorkflowsSchema.parse(teamsPayload(opened));
    const card = payload.attachments[0].content;
    expect(card.version).toBe('1.4');
    expect(card.body[0]).toMatchObject({ text: opened.title, color: 'Attention' });
    expect(card.body[1]).toEqual({
      type: 'FactSet',
      facts: [
        { title: 'Room', value: '204' },
        { title: 'Building', value: 'Science <Hall> & Annex' },
        { title: 'Class', value: 'Physics 101, 20:00–21:30 UTC' },
      ],
    });
    expect(card.body.slice(2).map((b) => ('text' in b ? b.text : ''))).toEqual([
      'Display <!channel> (10.1.2.3): offline',
      'Projector 1 (10.1.2.4): partly answering',
    ]);
    expect(card.actions).toEqual([{ type: 'Action.OpenUrl', title: 'Open room 204', url: link }]);
  });

  it('makes Slack Block Kit blocks with a fallback text, markup in names escaped', () => {
    const payload = slackMessageSchema.parse(slackPayload(opened));
    const json = JSON.stringify(payload);
    expect(json).not.toContain('<!channel>');
    expect(json).toContain('Display &lt;!channel&gt; (10.1.2.3): offline');
    expect(payload.text).toBe(
      'Room 204, Science Hall: 2 of 5 devices offline — Display (10.1.2.4), Projector (10.1.2.3)',
    );
    expect(payload.blocks[1]).toEqual({
      type: 'section',
      fields: [
        { type: 'mrkdwn', text: '*Room*\n204' },
        { type: 'mrkdwn', text: '*Building*\nScience &lt;Hall&gt; &amp; Annex' },
        { type: 'mrkdwn', text: '*Class*\nPhysics 101, 20:00–21:30 UTC' },
      ],
    });
    expect(payload.blocks.at(-1)).toEqual({
      type: 'context',
      elements: [{ type: 'mrkdwn', text: `<${link}|Open room 204>` }],
    });
  });

  it('makes a Matrix HTML room message with the tags the spec allows, text escaped', () => {
    const payload = matrixTextSchema.parse(matrixPayload(opened));
    expect(payload.formatted_body).toContain('<strong>Building:</strong> Science &lt;Hall&gt; &amp; Annex');
    expect(payload.formatted_body).toContain(`<a href="${link}">Open room 204</a>`);
    expect(payload.body.split('\n')).toEqual([
      'Room 204, Science Hall: 2 of 5 devices offline',
      'Room: 204',
      'Building: Science <Hall> & Annex',
      'Class: Physics 101, 20:00–21:30 UTC',
      '- Display <!channel> (10.1.2.3): offline',
      '- Projector 1 (10.1.2.4): partly answering',
      link,
    ]);
  });

  it('lists so many devices by name and counts the rest, within every service’s limits', () => {
    const many = chatMessage(delivery({}, 80), link);
    const slack = slackMessageSchema.parse(slackPayload(many));
    expect(JSON.stringify(slack)).toContain(`and ${80 - CHAT_MAX_DEVICES} more`);
    teamsWorkflowsSchema.parse(teamsPayload(many));
    expect(JSON.stringify(matrixTextSchema.parse(matrixPayload(many))).length).toBeLessThan(65_536);
  });

  it('shows a recovery and a test message as text, green for the recovery, without devices', () => {
    const recovered = chatMessage(
      delivery({
        kind: 'alert.recovered',
        subject: undefined,
        text: 'Room 204, Science Hall: all devices back online after 12 min',
      }),
      link,
    );
    const card = teamsWorkflowsSchema.parse(teamsPayload(recovered)).attachments[0].content;
    expect(card.body[0]).toMatchObject({ color: 'Good' });
    expect(card.body).toHaveLength(2);
    const test = chatMessage(
      {
        ...delivery({}),
        kind: 'test',
        content: { kind: 'test', text: 'Test message from Classroom Monitor' },
      },
      undefined,
    );
    expect(slackMessageSchema.parse(slackPayload(test)).blocks).toHaveLength(1);
    expect(matrixTextSchema.parse(matrixPayload(test)).body).toBe('Test message from Classroom Monitor');
  });
});
