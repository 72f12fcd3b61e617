import { z } from 'zod';

/**
 * The shapes the chat services document, as far as our messages use them, strict (an unknown or
 * misspelt property fails): what a payload is checked against before it is trusted to render.
 *
 * Adaptive Cards (adaptivecards.io/explorer, schema 1.4, the version Teams renders on every
 * client): TextBlock, FactSet and Action.OpenUrl, with their enumerations.
 */
const spacing = z.enum(['None', 'Small', 'Default', 'Medium', 'Large', 'ExtraLarge', 'Padding']);
const textBlock = z.strictObject({
  type: z.literal('TextBlock'),
  text: z.string().min(1),
  wrap: z.boolean().optional(),
  weight: z.enum(['Default', 'Lighter', 'Bolder']).optional(),
  size: z.enum(['Default', 'Small', 'Medium', 'Large', 'ExtraLarge']).optional(),
  color: z.enum(['Default', 'Dark', 'Light', 'Accent', 'Good', 'Warning', 'Attention']).optional(),
  spacing: spacing.optional(),
});
const factSet = z.strictObject({
  type: z.literal('FactSet'),
  facts: z.array(z.strictObject({ title: z.string(), value: z.string() })).min(1),
  spacing: spacing.optional(),
});
const openUrl = z.strictObject({
  type: z.literal('Action.OpenUrl'),
  title: z.string().optional(),
  url: z.url(),
});
export const adaptiveCardSchema = z.strictObject({
  $schema: z.literal('http://adaptivecards.io/schemas/adaptive-card.json').optional(),
  type: z.literal('AdaptiveCard'),
  version: z.string().regex(/^1\.[4-6]$/),
  msteams: z.strictObject({ width: z.literal('Full') }).optional(),
  body: z.array(z.discriminatedUnion('type', [textBlock, factSet])).min(1),
  actions: z.array(openUrl).optional(),
});

/** The Workflows "Send webhook alerts to a channel" template's body: a message with card attachments. */
export const teamsWorkflowsSchema = z.strictObject({
  type: z.literal('message'),
  attachments: z
    .array(
      z.strictObject({
        contentType: z.literal('application/vnd.microsoft.card.adaptive'),
        contentUrl: z.null().optional(),
        content: adaptiveCardSchema,
      }),
    )
    .min(1),
});

/**
 * Block Kit (docs.slack.dev/reference/block-kit): text objects, header (plain text, 150
 * characters), section (text up to 3000, or up to 10 fields of 2000), context (up to 10
 * elements), at most 50 blocks; an incoming webhook's `text` is the notification and fallback.
 */
const plainText = (max: number) =>
  z.strictObject({
    type: z.literal('plain_text'),
    text: z.string().min(1).max(max),
    emoji: z.boolean().optional(),
  });
const mrkdwn = (max: number) =>
  z.strictObject({
    type: z.literal('mrkdwn'),
    text: z.string().min(1).max(max),
    verbatim: z.boolean().optional(),
  });
const textObject = (max: number) => z.discriminatedUnion('type', [plainText(max), mrkdwn(max)]);
const block = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('header'), text: plainText(150), block_id: z.string().optional() }),
  z
    .strictObject({
      type: z.literal('section'),
      text: textObject(3000).optional(),
      fields: z.array(textObject(2000)).min(1).max(10).optional(),
      block_id: z.string().optional(),
    })
    .refine((s) => s.text || s.fields, { message: 'a section needs text or fields' }),
  z.strictObject({ type: z.literal('context'), elements: z.array(textObject(3000)).min(1).max(10) }),
  z.strictObject({ type: z.literal('divider') }),
]);
export const slackMessageSchema = z.strictObject({
  text: z.string().min(1),
  blocks: z.array(block).min(1).max(50),
});

/**
 * A Matrix `m.room.message` of msgtype `m.text` (spec.matrix.org, client-server API, "m.text"):
 * `body` always; `format` `org.matrix.custom.html` with `formatted_body` together; the HTML uses
 * only the tags the spec recommends clients allow.
 */
const matrixTags = new Set(
  'font del h1 h2 h3 h4 h5 h6 blockquote p a ul ol sup sub li b i u strong em s code hr br div table thead tbody tr th td caption pre span img details summary'.split(
    ' ',
  ),
);
export const matrixTextSchema = z
  .strictObject({
    msgtype: z.literal('m.text'),
    body: z.string().min(1),
    format: z.literal('org.matrix.custom.html').optional(),
    formatted_body: z.string().min(1).optional(),
  })
  .refine((m) => Boolean(m.format) === Boolean(m.formatted_body), {
    message: 'format and formatted_body go together',
  })
  .refine(
    (m) =>
      [...(m.formatted_body ?? '').matchAll(/<\/?([a-z0-9]+)/gi)].every(([, tag]) => matrixTags.has(tag)),
    { message: 'formatted_body uses a tag outside the recommended list' },
  );
