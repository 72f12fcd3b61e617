import { type ChannelCreated, ErrorCode, messages } from '@cm/contracts';
import { CONFIG } from '@cm/platform';
import { eventually } from '@cm/platform/testing';
import { createServer } from 'node:http';
import { type AddressInfo } from 'node:net';
import { type Config } from '../src/config';
import { DeliveryRepository } from '../src/alerting/notifications/delivery.repository';
import { DeliveryRelay } from '../src/alerting/notifications/delivery.relay';
import { WebhookTargets } from '../src/alerting/notifications/webhook-targets';
import { channelsTestEnv, smtpForTests, startReceiver } from './receivers';
import {
  dropNamespace,
  failureOf,
  type Inventory,
  inventoryUnderTest,
  metricValue,
  newNamespace,
  sql,
  startInventory,
} from './support';

describe('notification channels and deliveries', () => {
  const env = channelsTestEnv();
  const smtp = smtpForTests(env);

  const inventory = inventoryUnderTest(env);
  const { send, make } = inventory;
  const webhook = (url: string, over: object = {}) =>
    send(messages.inventory.createChannel, { name: 'AV team', type: 'webhook', url, ...over });
  const enqueue = (sut: Inventory, channelId: string, texts: string[]) =>
    sut.app
      .get(DeliveryRepository)
      .enqueue(texts.map((text) => ({ channelId, content: { kind: 'alert', text } })));

  it('shows a webhook secret once, and signs the test message with it', async () => {
    let created: ChannelCreated | undefined;
    const receiver = await startReceiver(() => created?.secret ?? undefined);
    try {
      created = await webhook(receiver.url);
      expect(created.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
      const listed = await send(messages.inventory.listChannels);
      expect(listed.find((c) => c.id === created!.id)).not.toHaveProperty('secret');
      expect(JSON.stringify(listed)).not.toContain(created.secret);
      const stored = await sql<{ secret: string }>(
        inventory.sut,
        'SELECT secret FROM inv.notification_channels WHERE id = $1',
        [created.id],
      );
      expect(stored[0].secret).not.toContain(created.secret!.slice(6));

      const result = await send(messages.inventory.testChannel, { id: created.id });

      expect(result.delivery).toMatchObject({ state: 'sent', kind: 'test', attempts: 1, lastError: null });
      expect(result.message).toBe('Test message sent to "AV team".');
      expect(receiver.received).toHaveLength(1);
      const [got] = receiver.received;
      expect(got.signatureValid).toBe(true);
      expect(got.deliveryId).toBe(result.delivery.id);
      expect(got.body).toMatchObject({
        version: 2,
        id: result.delivery.id,
        kind: 'test',
        text: 'Test message from Classroom Monitor: alerts sent to "AV team" arrive here.',
        channel: { id: created.id, name: 'AV team' },
      });
      const log = await send(messages.inventory.listDeliveries, { channelId: created.id });
      expect(log.items.map((d) => [d.kind, d.state])).toEqual([['test', 'sent']]);
    } finally {
      await receiver.close();
    }
  });

  it('signs with a new secret once it is rotated, answering it once', async () => {
    let secret: string | undefined;
    const receiver = await startReceiver(() => secret);
    try {
      const channel = await webhook(receiver.url, { name: 'Rotated' });
      const old = channel.secret!;
      const rotated = await send(messages.inventory.rotateChannelSecret, { id: channel.id });
      expect(rotated).toMatchObject({ id: channel.id, secret: expect.stringMatching(/^whsec_/) });
      expect(rotated.secret).not.toBe(old);

      // A receiver still on the old secret refuses; one given the new secret accepts.
      secret = old;
      expect((await send(messages.inventory.testChannel, { id: channel.id })).delivery.state).toBe('failed');
      secret = rotated.secret!;
      expect((await send(messages.inventory.testChannel, { id: channel.id })).delivery.state).toBe('sent');
      expect(receiver.received.map((r) => r.signatureValid)).toEqual([false, true]);
    } finally {
      await receiver.close();
    }
  });

  it('answers a failed test with why, once, without retrying it', async () => {
    const receiver = await startReceiver(() => undefined);
    const channel = await webhook(receiver.url, { name: 'Wrong secret' });
    try {
      // The receiver does not know this channel's secret: it refuses, as a misconfigured one would.
      const result = await send(messages.inventory.testChannel, { id: channel.id });
      expect(result.delivery).toMatchObject({ state: 'failed', attempts: 1, nextAttemptAt: null });
      expect(result.message).toBe(
        `The test message to "Wrong secret" failed: 127.0.0.1:${receiver.port} answered HTTP 401`,
      );
      await new Promise((resolve) => setTimeout(resolve, 800));
      expect(receiver.received).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });

  it("keeps the receiver's answer out of the test result and the log: its status alone", async () => {
    // An inside service answering with what it knows, as a probe through a webhook would read it.
    const talkative = createServer((req, res) => {
      req.resume();
      req.on('end', () =>
        res.writeHead(500, 'Internal leak').end('db password=hunter2; upstream 10.0.0.7 refused us'),
      );
    });
    await new Promise<void>((resolve) => talkative.listen(0, '127.0.0.1', resolve));
    const port = (talkative.address() as AddressInfo).port;
    try {
      const channel = await webhook(`http://127.0.0.1:${port}/hook`, { name: 'Talkative' });

      const result = await send(messages.inventory.testChannel, { id: channel.id });

      expect(result.message).toBe(
        `The test message to "Talkative" failed: 127.0.0.1:${port} answered HTTP 500`,
      );
      expect(result.delivery).toMatchObject({
        state: 'failed',
        lastError: `127.0.0.1:${port} answered HTTP 500`,
      });
      const log = await send(messages.inventory.listDeliveries, { channelId: channel.id });
      expect(JSON.stringify([result, log])).not.toMatch(/hunter2|10\.0\.0\.7|Internal leak/);
    } finally {
      await new Promise((resolve) => talkative.close(resolve));
    }
  });

  it.each([
    ['http://169.254.169.254/latest/meta-data/', 'link-local'],
    ['http://[::ffff:169.254.169.254]/latest/meta-data/', 'link-local'],
    ['http://[::ffff:a9fe:a9fe]/', 'link-local'],
    ['http://[64:ff9b::169.254.169.254]/', 'link-local'],
    ['http://[fe80::1]/', 'link-local'],
    ['http://127.0.0.2:4222/', 'loopback'],
    ['http://[::1]:5432/', 'loopback'],
    ['http://[::ffff:127.0.0.3]:9102/', 'loopback'],
    ['http://10.1.2.3/', 'private-use'],
    ['http://[fd00::5]/', 'private-use'],
  ])('refuses a webhook to %s when it is saved: a %s address not listed', async (url, kind) => {
    const refusal = await failureOf(webhook(url));
    const message = expect.stringMatching(
      new RegExp(`^Webhooks may not go to .*an address in the ${kind} range\\. .*ALERTS_ALLOWED_TARGETS$`),
    );
    expect(refusal).toMatchObject({
      code: ErrorCode.VALIDATION_FAILED,
      message,
      errors: [{ path: 'url', message }],
    });
  });

  it.each([
    ['http://0.0.0.0:9102/', 'unspecified'],
    ['http://[::]:4222/', 'unspecified'],
    ['http://224.0.0.1/', 'multicast'],
  ])('refuses a webhook to %s whatever is listed (%s)', async (url, kind) => {
    expect(await failureOf(webhook(url))).toMatchObject({
      code: ErrorCode.VALIDATION_FAILED,
      message: expect.stringMatching(new RegExp(`an address in the ${kind} range$`)),
    });
  });

  it('judges the address a name resolves to when saved, and again on the connection each send makes', async () => {
    const dns = jest.spyOn(inventory.sut.app.get(WebhookTargets), 'resolve');
    const at = (address: string, family = 4) => Promise.resolve([{ address, family }]);
    let secret: string | undefined;
    const listed = await startReceiver(() => secret);
    // The same port on a loopback address ALERTS_ALLOWED_TARGETS does not list.
    const unlisted = await startReceiver(() => secret, listed.port, '127.0.0.2');
    try {
      dns.mockImplementation(() => at('10.1.2.3'));
      expect(await failureOf(webhook('https://hooks.campus.test/av'))).toMatchObject({
        code: ErrorCode.VALIDATION_FAILED,
        message: expect.stringContaining(
          'Webhooks may not go to hooks.campus.test: it resolves to 10.1.2.3, an address in the private-use range.',
        ),
      });

      dns.mockImplementation(() => at('127.0.0.1'));
      const channel = await webhook(`http://hooks.campus.test:${listed.port}/av`, { name: 'Rebound' });
      secret = channel.secret!;
      const test = () => send(messages.inventory.testChannel, { id: channel.id });
      // A name that answers a listed address once, then an unlisted one: whatever was checked is
      // what is connected to.
      dns.mockImplementationOnce(() => at('127.0.0.1')).mockImplementation(() => at('127.0.0.2'));
      expect((await test()).delivery.state).toBe('sent');
      expect(listed.received).toHaveLength(1);

      // Since the save the name has come to resolve to a refused address: nothing connects there.
      const blocked = `Could not reach hooks.campus.test:${listed.port}: blocked address`;
      expect((await test()).delivery).toMatchObject({ state: 'failed', lastError: blocked });
      dns.mockImplementation(() => at('::ffff:127.0.0.2', 6));
      expect((await test()).delivery).toMatchObject({ state: 'failed', lastError: blocked });
      // One refused address among several refuses the name: which one a connection picks is not ours to say.
      dns.mockImplementation(() =>
        Promise.resolve([
          { address: '127.0.0.1', family: 4 },
          { address: '127.0.0.2', family: 4 },
        ]),
      );
      expect((await test()).delivery).toMatchObject({ state: 'failed', lastError: blocked });
      expect(unlisted.received).toHaveLength(0);
      expect(listed.received).toHaveLength(1);
    } finally {
      dns.mockRestore();
      await listed.close();
      await unlisted.close();
    }
  });

  it('sends e-mail through the configured SMTP server', async () => {
    const channel = await send(messages.inventory.createChannel, {
      name: 'AV desk',
      type: 'email',
      recipients: ['AV-Desk@example.edu', 'oncall@example.edu'],
    });
    expect(channel).toMatchObject({
      secret: null,
      recipients: ['av-desk@example.edu', 'oncall@example.edu'],
    });

    const result = await send(messages.inventory.testChannel, { id: channel.id });

    expect(result.delivery.state).toBe('sent');
    expect(smtp.mails).toHaveLength(1);
    expect(smtp.mails[0].to).toEqual(['av-desk@example.edu', 'oncall@example.edu']);
    expect(smtp.mails[0].data).toContain('Subject: Classroom Monitor test: AV desk');
    expect(smtp.mails[0].data).toContain('From: Classroom Monitor <av-alerts@example.edu>');
    expect(smtp.mails[0].data).toContain('alerts sent to "AV desk" arrive here.');
  });

  it('delivers a message once, late, when the receiver was down and comes back', async () => {
    // A port that refuses connections until the receiver listens on it again.
    const first = await startReceiver(() => undefined);
    const { port, url } = first;
    await first.close();
    const channel = await webhook(url, { name: 'Flaky receiver' });
    const secret = channel.secret!;

    const [id] = await enqueue(inventory.sut, channel.id, ['Room 204, Science Hall: 1 of 2 devices offline']);
    inventory.sut.app.get(DeliveryRelay).kick();
    const failing = await eventually(async () => {
      const [row] = await sql<{ attempts: number; state: string; last_error: string }>(
        inventory.sut,
        'SELECT attempts, state, last_error FROM inv.deliveries WHERE id = $1',
        [id],
      );
      // Between two attempts: read during one, the row is `sending`.
      expect(row.attempts).toBeGreaterThanOrEqual(2);
      expect(row).toMatchObject({
        state: 'pending',
        last_error: `Could not reach 127.0.0.1:${port}: refused`,
      });
      return row;
    });

    const upAt = Date.now();
    const receiver = await startReceiver(() => secret, port);
    try {
      const delivered = await eventually(async () => {
        const log = await send(messages.inventory.listDeliveries, { channelId: channel.id, state: 'sent' });
        expect(log.items).toHaveLength(1);
        return log.items[0];
      });
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(receiver.received.map((r) => [r.deliveryId, r.signatureValid])).toEqual([[id, true]]);
      expect(receiver.received[0].at).toBeGreaterThanOrEqual(upAt);
      expect(delivered.attempts).toBeGreaterThan(failing.attempts);
      expect(delivered.lastError).toBeNull();
      expect(receiver.received[0].body).toMatchObject({
        kind: 'alert',
        text: 'Room 204, Science Hall: 1 of 2 devices offline',
      });
    } finally {
      await receiver.close();
    }
  });

  it("counts failed attempts and given-up alerts by channel type, not the test button's", async () => {
    // A port that refuses connections: every attempt fails.
    const gone = await startReceiver(() => undefined);
    await gone.close();
    const channel = await webhook(gone.url, { name: 'Retired receiver' });
    const failures = () =>
      metricValue(
        inventory.sut,
        'cm_inventory_notification_delivery_failures_total',
        'channel_type="webhook"',
      );
    const givenUp = () =>
      metricValue(
        inventory.sut,
        'cm_inventory_notification_deliveries_given_up_total',
        'channel_type="webhook"',
      );
    const counted = async () => ({ failures: (await failures()) || 0, givenUp: (await givenUp()) || 0 });
    const before = await counted();

    const test = await send(messages.inventory.testChannel, { id: channel.id });
    expect(test.delivery).toMatchObject({ state: 'failed' });
    expect(await counted()).toEqual(before);

    // Every attempt the settings allow, a second or less apart (channelsTestEnv), then given up.
    const { ALERTS_MAX_ATTEMPTS: attempts } = inventory.sut.app.get<Config>(CONFIG);
    const relay = inventory.sut.app.get(DeliveryRelay);
    const [id] = await enqueue(inventory.sut, channel.id, ['Room 9, Old Wing: 1 of 1 devices offline']);
    relay.kick();
    await eventually(async () => {
      const [row] = await sql<{ state: string }>(
        inventory.sut,
        'SELECT state FROM inv.deliveries WHERE id = $1',
        [id],
      );
      expect(row.state).toBe('failed');
    }, 60_000);
    expect(await counted()).toEqual({ failures: before.failures + attempts, givenUp: before.givenUp + 1 });
  });

  it('sends each delivery once from two replicas', async () => {
    let secret: string | undefined;
    const receiver = await startReceiver(() => secret);
    const second = await startInventory(inventory.namespace, env);
    try {
      const channel = await webhook(receiver.url, { name: 'Two replicas' });
      secret = channel.secret!;
      const texts = Array.from({ length: 60 }, (_, i) => `Message ${i}`);
      // Queued on both replicas, each kicking its own relay, as alerts from both would be.
      const ids = [
        ...(await enqueue(inventory.sut, channel.id, texts.slice(0, 30))),
        ...(await enqueue(second, channel.id, texts.slice(30))),
      ];
      inventory.sut.app.get(DeliveryRelay).kick();
      second.app.get(DeliveryRelay).kick();

      await eventually(async () => {
        const log = await send(messages.inventory.listDeliveries, {
          channelId: channel.id,
          state: 'sent',
          limit: 100,
        });
        expect(log.items).toHaveLength(60);
      });
      await new Promise((resolve) => setTimeout(resolve, 500));
      const counts = new Map<string, number>();
      for (const r of receiver.received) counts.set(r.deliveryId, (counts.get(r.deliveryId) ?? 0) + 1);
      expect([...counts.keys()].sort()).toEqual([...ids].sort());
      expect([...counts.values()].every((n) => n === 1)).toBe(true);
      expect(receiver.received.every((r) => r.signatureValid)).toBe(true);
    } finally {
      await second.close();
      await receiver.close();
    }
  });

  it('sends what a replica that died mid-send had claimed, once its lease is over, and only then', async () => {
    let secret: string | undefined;
    const receiver = await startReceiver(() => secret);
    try {
      const channel = await webhook(receiver.url, { name: 'Orphaned' });
      secret = channel.secret!;
      // As a replica leaves a row it claimed and died holding: sending, its lease still running.
      const [held, orphaned] = await sql<{ id: string }>(
        inventory.sut,
        `INSERT INTO inv.deliveries (channel_id, kind, payload, state, attempts, next_attempt_at)
         VALUES ($1, 'alert', '{"kind":"alert","text":"held"}', 'sending', 1, now() + interval '1 hour'),
                ($1, 'alert', '{"kind":"alert","text":"orphaned"}', 'sending', 1, now() - interval '1 second')
         RETURNING id`,
        [channel.id],
      );
      inventory.sut.app.get(DeliveryRelay).kick();
      await eventually(async () => {
        const log = await send(messages.inventory.listDeliveries, { channelId: channel.id, state: 'sent' });
        expect(log.items.map((d) => [d.id, d.attempts])).toEqual([[orphaned.id, 2]]);
      });
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(receiver.received.map((r) => r.body.text)).toEqual(['orphaned']);
      const [stillHeld] = await sql<{ state: string }>(
        inventory.sut,
        'SELECT state FROM inv.deliveries WHERE id = $1',
        [held.id],
      );
      expect(stillHeld.state).toBe('sending');
    } finally {
      await receiver.close();
    }
  });

  it('keeps what it could not send across a restart, and sends it after', async () => {
    const namespace = newNamespace();
    let alone = await startInventory(namespace, env);
    let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;
    try {
      const first = await startReceiver(() => undefined);
      const { port, url } = first;
      await first.close();
      const channel = await alone.rpc.send(messages.inventory.createChannel, {
        name: 'Across a restart',
        type: 'webhook',
        url,
      });
      const [id] = await enqueue(alone, channel.id, ['Room 101: Display offline']);
      alone.app.get(DeliveryRelay).kick();
      await eventually(async () => {
        const [row] = await sql<{ attempts: number }>(
          alone,
          'SELECT attempts FROM inv.deliveries WHERE id = $1',
          [id],
        );
        expect(row.attempts).toBeGreaterThanOrEqual(1);
      });
      await alone.close();

      receiver = await startReceiver(() => channel.secret!, port);
      alone = await startInventory(namespace, env);
      await eventually(async () => expect(receiver!.received.map((r) => r.deliveryId)).toEqual([id]));
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(receiver.received.map((r) => [r.deliveryId, r.signatureValid])).toEqual([[id, true]]);
    } finally {
      await alone.close();
      await receiver?.close();
      await dropNamespace(namespace);
    }
  });

  it('pages the log newest first by cursor, and filters it', async () => {
    const channel = await webhook('http://127.0.0.1:9/never', { name: 'Paging', enabled: false });
    const ids = await enqueue(
      inventory.sut,
      channel.id,
      Array.from({ length: 5 }, (_, i) => `Page ${i}`),
    );
    await eventually(async () => {
      const log = await send(messages.inventory.listDeliveries, { channelId: channel.id, state: 'failed' });
      expect(log.items).toHaveLength(5);
    });
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await send(messages.inventory.listDeliveries, { channelId: channel.id, limit: 2, cursor });
      seen.push(...page.items.map((d) => d.id));
      expect(page.items.every((d) => d.lastError === 'The channel was disabled before this was sent')).toBe(
        true,
      );
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen.sort()).toEqual([...ids].sort());
    const none = await send(messages.inventory.listDeliveries, {
      channelId: channel.id,
      from: new Date(Date.now() + 60_000).toISOString(),
    });
    expect(none).toEqual({ items: [], nextCursor: null });
  });

  it('refuses channels it could not use, naming the field', async () => {
    const building = await make.building();
    expect(
      await failureOf(
        send(messages.inventory.createChannel, { name: 'X', type: 'webhook', url: 'ftp://x/y' }),
      ),
    ).toMatchObject({
      code: ErrorCode.VALIDATION_FAILED,
      errors: [expect.objectContaining({ path: 'url' })],
    });
    expect(
      await failureOf(
        send(messages.inventory.createChannel, {
          name: 'X',
          type: 'webhook',
          url: 'http://169.254.169.254/',
        }),
      ),
    ).toMatchObject({ code: ErrorCode.VALIDATION_FAILED, message: expect.stringContaining('link-local') });
    expect(
      await failureOf(send(messages.inventory.createChannel, { name: 'X', type: 'email', recipients: [] })),
    ).toMatchObject({
      code: ErrorCode.VALIDATION_FAILED,
      message: 'An email channel needs at least one recipient',
    });
    const missing = '00000000-0000-4000-8000-000000000000';
    expect(
      await failureOf(
        send(messages.inventory.createChannel, {
          name: 'X',
          type: 'email',
          recipients: ['a@example.edu'],
          buildingIds: [building.id, missing],
        }),
      ),
    ).toMatchObject({ code: ErrorCode.VALIDATION_FAILED, message: expect.stringContaining(missing) });
    const email = await send(messages.inventory.createChannel, {
      name: 'Scoped',
      type: 'email',
      recipients: ['a@example.edu'],
      buildingIds: [building.id],
    });
    expect(email.buildingIds).toEqual([building.id]);
    expect(
      await failureOf(
        send(messages.inventory.updateChannel, {
          id: email.id,
          changes: { name: 'Scoped', type: 'webhook', url: 'http://127.0.0.1:9/' },
        }),
      ),
    ).toMatchObject({
      code: ErrorCode.VALIDATION_FAILED,
      errors: [expect.objectContaining({ path: 'type' })],
    });
    expect(await failureOf(send(messages.inventory.rotateChannelSecret, { id: email.id }))).toMatchObject({
      code: ErrorCode.VALIDATION_FAILED,
      message: 'Only webhook channels have a signing secret',
    });
    expect(await failureOf(send(messages.inventory.testChannel, { id: missing }))).toMatchObject({
      code: ErrorCode.CHANNEL_NOT_FOUND,
    });
  });

  it('refuses e-mail and webhook channels when the server is not set up for them', async () => {
    const namespace = `${inventory.namespace}_bare`;
    const bare = await startInventory(namespace);
    try {
      expect(
        await failureOf(
          bare.rpc.send(messages.inventory.createChannel, {
            name: 'X',
            type: 'email',
            recipients: ['a@example.edu'],
          }),
        ),
      ).toMatchObject({ code: ErrorCode.CHANNEL_UNAVAILABLE, message: expect.stringContaining('SMTP_HOST') });
      expect(
        await failureOf(
          bare.rpc.send(messages.inventory.createChannel, {
            name: 'X',
            type: 'webhook',
            url: 'https://a.example.edu/',
          }),
        ),
      ).toMatchObject({
        code: ErrorCode.CHANNEL_UNAVAILABLE,
        message: expect.stringContaining('ALERTS_SECRET_KEY'),
      });
    } finally {
      await bare.close();
      await dropNamespace(namespace);
    }
  });
});
