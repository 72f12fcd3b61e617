import { type ChatMessage, classText, deviceText } from './chat-message';

/**
 * Devices listed by name in one message; the rest are counted ("and 12 more"). A room has a
 * handful; a building's switch taking 80 devices with it should not make a message the chat
 * service refuses (Slack: 3000 characters a section; Matrix: 64 KiB an event).
 */
export const CHAT_MAX_DEVICES = 25;

const listed = (m: ChatMessage) => {
  const lines = m.devices.slice(0, CHAT_MAX_DEVICES).map(deviceText);
  const more = m.devices.length - lines.length;
  return more > 0 ? [...lines, `and ${more} more`] : lines;
};

/** Room, building and class, each when the message has it. */
function facts(m: ChatMessage): { title: string; value: string }[] {
  const all = [
    { title: 'Room', value: m.room },
    { title: 'Building', value: m.building },
    { title: 'Class', value: m.class ? classText(m.class) : null },
  ];
  return all.filter((f): f is { title: string; value: string } => Boolean(f.value));
}

const linkTitle = (m: ChatMessage) => (m.room ? `Open room ${m.room}` : 'Open Classroom Monitor');

/**
 * A Teams Workflows webhook's body ("Send webhook alerts to a channel"): a message whose one
 * attachment is an Adaptive Card 1.4 (the version Teams renders everywhere, phones included).
 */
export function teamsPayload(m: ChatMessage): object {
  const color = m.tone === 'problem' ? 'Attention' : m.tone === 'recovered' ? 'Good' : 'Default';
  const body: object[] = [
    { type: 'TextBlock', text: m.title, weight: 'Bolder', size: 'Medium', color, wrap: true },
  ];
  const f = facts(m);
  if (f.length > 0) body.push({ type: 'FactSet', facts: f });
  if (m.detail) body.push({ type: 'TextBlock', text: m.detail, wrap: true });
  for (const line of listed(m)) body.push({ type: 'TextBlock', text: line, wrap: true, spacing: 'Small' });
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          msteams: { width: 'Full' },
          body,
          ...(m.link ? { actions: [{ type: 'Action.OpenUrl', title: linkTitle(m), url: m.link }] } : {}),
        },
      },
    ],
  };
}

/** Slack's mrkdwn treats `&`, `<` and `>` as markup (`<!channel>` would notify everyone). */
const slackEscape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * A Slack incoming webhook's body: Block Kit blocks, and `text`, the notification's words and what
 * a client that cannot show the blocks shows. The link is a mrkdwn link, not a button: a button
 * posts to the app's interactivity URL, which an incoming-webhook app does not have.
 */
export function slackPayload(m: ChatMessage): object {
  const icon = m.tone === 'problem' ? ':red_circle: ' : m.tone === 'recovered' ? ':large_green_circle: ' : '';
  const blocks: object[] = [
    { type: 'header', text: { type: 'plain_text', text: cut(`${icon}${m.title}`, 150), emoji: true } },
  ];
  const f = facts(m);
  if (f.length > 0) {
    blocks.push({
      type: 'section',
      fields: f.map((x) => ({ type: 'mrkdwn', text: cut(`*${x.title}*\n${slackEscape(x.value)}`, 2000) })),
    });
  }
  const lines = listed(m).map((line) => `• ${slackEscape(line)}`);
  const body = [m.detail ? slackEscape(m.detail) : null, ...lines].filter(Boolean).join('\n');
  if (body) blocks.push({ type: 'section', text: { type: 'mrkdwn', text: cut(body, 3000) } });
  if (m.link) {
    blocks.push({
      type: 'context',
      elements: [{ type: 'mrkdwn', text: `<${m.link}|${slackEscape(linkTitle(m))}>` }],
    });
  }
  return { text: cut(slackEscape(m.text), 3000), blocks };
}

const html = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');

/**
 * A Matrix `m.room.message`: `body` plain text for clients without HTML, `formatted_body` in the
 * HTML subset the spec lists (h4, p, ul, li, strong, a, br). Sent as `m.text` so that people in
 * the room are notified (an `m.notice` may be silent).
 */
export function matrixPayload(m: ChatMessage): object {
  const f = facts(m);
  const lines = listed(m);
  const plain = [
    m.title,
    ...f.map((x) => `${x.title}: ${x.value}`),
    ...(m.detail ? [m.detail] : []),
    ...lines.map((line) => `- ${line}`),
    ...(m.link ? [m.link] : []),
  ].join('\n');
  const parts = [`<h4>${html(m.title)}</h4>`];
  if (f.length > 0) {
    parts.push(`<p>${f.map((x) => `<strong>${html(x.title)}:</strong> ${html(x.value)}`).join('<br>')}</p>`);
  }
  if (m.detail) parts.push(`<p>${html(m.detail).replace(/\n/g, '<br>')}</p>`);
  if (lines.length > 0) parts.push(`<ul>${lines.map((line) => `<li>${html(line)}</li>`).join('')}</ul>`);
  if (m.link) parts.push(`<p><a href="${html(m.link)}">${html(linkTitle(m))}</a></p>`);
  return { msgtype: 'm.text', body: plain, format: 'org.matrix.custom.html', formatted_body: parts.join('') };
}
