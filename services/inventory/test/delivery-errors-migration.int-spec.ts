import { messages } from '@cm/contracts';
import { migrations } from '../src/migrations';
import { DeliveryErrorsWithoutAnswers1764610000000 } from '../src/migrations/1764610000000-delivery-errors-without-answers';
import { dropNamespace, type Inventory, newNamespace, startUpgraded } from './support';

/**
 * An installation from when the delivery log kept the start of a receiver's error answer: upgrading
 * keeps the status of each and drops what the receiver said.
 */
describe(DeliveryErrorsWithoutAnswers1764610000000.name, () => {
  const namespace = newNamespace();
  let inventory: Inventory;
  let channelId = '';
  const errors: [string, string][] = [
    [
      'hooks.example.edu answered HTTP 500 Internal Server Error: db password=hunter2; see 10.0.0.7',
      'hooks.example.edu answered HTTP 500',
    ],
    ['127.0.0.1:9 answered HTTP 401 Unauthorized', '127.0.0.1:9 answered HTTP 401'],
    ['the webhook answered HTTP 404: nothing answered HTTP 200 here', 'the webhook answered HTTP 404'],
    ['127.0.0.1:9 answered HTTP 502', '127.0.0.1:9 answered HTTP 502'],
    ['Could not reach hooks.example.edu: ECONNREFUSED', 'Could not reach hooks.example.edu: ECONNREFUSED'],
    ['The channel was disabled before this was sent', 'The channel was disabled before this was sent'],
  ];

  beforeAll(async () => {
    const before = migrations.filter((m) => m !== DeliveryErrorsWithoutAnswers1764610000000);
    inventory = await startUpgraded(namespace, before, async (old, s) => {
      const [channel] = await old.query(
        `INSERT INTO ${s}.notification_channels (name, type, url, secret, enabled)
         VALUES ('AV chat', 'webhook', 'https://hooks.example.edu/av', 'sealed', false) RETURNING id`,
      );
      channelId = channel.id;
      for (const [error] of errors) {
        await old.query(
          `INSERT INTO ${s}.deliveries (channel_id, kind, payload, state, attempts, next_attempt_at, last_error)
           VALUES ($1, 'alert', '{"kind":"alert","text":"x"}', 'failed', 1, NULL, $2)`,
          [channelId, error],
        );
      }
    });
  });
  afterAll(async () => {
    await inventory?.close();
    await dropNamespace(namespace);
  });

  it("keeps each failed delivery's status and drops the receiver's words", async () => {
    const log = await inventory.rpc.send(messages.inventory.listDeliveries, { channelId });
    expect(log.items.map((d) => d.lastError).sort()).toEqual(errors.map(([, after]) => after).sort());
  });
});
