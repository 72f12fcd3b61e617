import { messages } from '@cm/contracts';
import { eventually } from '@cm/platform/testing';
import { DELIVERY_CLOCK, type DeliveryClock } from '../src/alerting/notifications/delivery-clock';
import { DeliveryRelay } from '../src/alerting/notifications/delivery.relay';
import { IncidentReconciler } from '../src/alerting/notifications/service-desk/incident-reconciler';
import { IncidentRepository } from '../src/alerting/notifications/service-desk/incident.repository';
import { inventoryUnderTest, sql } from './support';
import { type JiraIssue, startFakeJira } from './support/fake-jira';
import { startFakeServiceNow } from './support/fake-servicenow';
import { doc, serviceDeskEnv, serviceDeskKit, textOf } from './support/service-desk';
import { withSecondReplica } from './support/service-desk-replicas';

/**
 * Jira Service Management as the issue asks of both service desks: one work item per room alert
 * episode, found again by its label, comments for devices joining and leaving, the resolve
 * transition on recovery (once, whatever failed meanwhile), a work item a person closed left
 * closed, the remote answer's status kept and never its body, the API token sealed.
 */
describe('Jira Service Management channels', () => {
  const env = serviceDeskEnv();
  const inventory = inventoryUnderTest(env);
  const { send } = inventory;
  const kit = serviceDeskKit(inventory);
  const { row, sent, episode, queue, twoAtOnce, serviceNowChannel, jiraChannel, setMapping } = kit;
  const mapping = { projectKey: 'AV' };
  let jira: Awaited<ReturnType<typeof startFakeJira>>;
  let channelId: string;
  beforeAll(async () => {
    jira = await startFakeJira();
    channelId = (await jiraChannel(jira, 'AV JSM', mapping)).id;
  });
  afterAll(() => jira.http.stop());
  beforeEach(() => {
    jira.http.requests.length = 0;
    jira.http.faults.length = 0;
    jira.http.outage = false;
  });

  /** The work items labelled with the alert's correlation key. */
  const itemsOf = (alertId: string) =>
    jira.issues.filter((i) => (i.fields.labels as string[]).includes(`cm-${alertId}`));
  const creates = () =>
    jira.http.requests.filter((r) => r.method === 'POST' && r.path === '/rest/api/3/issue');
  const resolves = () =>
    jira.http.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/transitions'));
  const browse = (key: string) => `${jira.http.url}/browse/${key}`;
  /** A work item with the alert's labels, as an attempt that died before recording it left one. */
  const opened = (alertId: string): JiraIssue => ({
    key: `AV-${jira.issues.length + 1}`,
    status: 'Work in progress',
    fields: { project: { key: 'AV' }, labels: ['classroom-monitor', `cm-${alertId}`] },
    comments: [],
  });

  it("comments devices joining and leaving, links the work item on the room's alert and in the log, resolves it once", async () => {
    const e = await episode();
    await sent(await queue(channelId, e.alertId, 'alert.opened'));
    const [item] = itemsOf(e.alertId);
    const ref = { channelId, channelName: 'AV JSM', number: item.key, url: browse(item.key) };
    const [open] = await send(messages.inventory.listOpenAlerts, { roomId: e.room.id });
    expect(open.incidents).toEqual([{ ...ref, state: 'open' }]);

    await e.setDevices([e.display, e.projector]);
    await sent(await queue(channelId, e.alertId, 'alert.updated'));
    await e.setDevices([e.projector]);
    await sent(await queue(channelId, e.alertId, 'alert.updated'));
    expect(item.comments).toEqual([
      {
        body: doc(`Now offline: Projector (${e.projector.ipAddress}). ${e.place}: 2 of 2 devices offline.`),
        internal: true,
      },
      {
        body: doc(`Answering again: Display (${e.display.ipAddress}). ${e.place}: 1 of 2 devices offline.`),
        internal: true,
      },
    ]);
    await e.close();
    await sent(await queue(channelId, e.alertId, 'alert.recovered'));
    expect(item.status).toBe('Resolved');
    expect(creates()).toHaveLength(1);
    expect(resolves()).toHaveLength(1);
    expect(itemsOf(e.alertId)).toHaveLength(1);

    const log = await send(messages.inventory.listDeliveries, { channelId, limit: 4 });
    expect(log.items.map((d) => [d.kind, d.incident])).toEqual(
      ['alert.recovered', 'alert.updated', 'alert.updated', 'alert.opened'].map((kind) => [
        kind,
        { ...ref, state: 'resolved' },
      ]),
    );
    expect(await inventory.sut.app.get(IncidentRepository).refs([e.alertId])).toEqual([
      { alertId: e.alertId, ...ref, state: 'resolved' },
    ]);
  });

  it('leaves a work item a person closed, and a new failure of the room opens a new one', async () => {
    const e = await episode();
    await sent(await queue(channelId, e.alertId, 'alert.opened'));
    const [item] = itemsOf(e.alertId);
    jira.closeByPerson(item.key);
    await e.close();
    const recovered = await queue(channelId, e.alertId, 'alert.recovered');
    await sent(recovered);
    expect(resolves()).toEqual([]);
    expect(item.status).toBe('Closed');
    const [logged] = (await send(messages.inventory.listDeliveries, { channelId, limit: 1 })).items;
    expect(logged).toMatchObject({ id: recovered, incident: { number: item.key, state: 'closed' } });

    const again = await episode(e);
    await sent(await queue(channelId, again.alertId, 'alert.opened'));
    const [next] = itemsOf(again.alertId);
    expect(next).toMatchObject({ status: 'Open' });
    expect(next.key).not.toBe(item.key);
    expect(item.status).toBe('Closed');
    expect(creates()).toHaveLength(2);
    const [open] = await send(messages.inventory.listOpenAlerts, { roomId: e.room.id });
    expect(open.incidents).toEqual([expect.objectContaining({ number: next.key, url: browse(next.key) })]);
  });

  it('opens one work item for two messages at once, and finds one an attempt opened before it died', async () => {
    const e = await twoAtOnce(channelId);
    expect(itemsOf(e.alertId)).toHaveLength(1);
    expect(creates()).toHaveLength(1);

    // Opened in Jira, but the answer never recorded here (the replica died): found by its label.
    const f = await episode();
    const lost = opened(f.alertId);
    jira.issues.push(lost);
    await sent(await queue(channelId, f.alertId, 'alert.opened'));
    expect(itemsOf(f.alertId)).toEqual([lost]);
    expect(creates()).toHaveLength(1);
    const [open] = await send(messages.inventory.listOpenAlerts, { roomId: f.room.id });
    expect(open.incidents).toEqual([expect.objectContaining({ number: lost.key, url: browse(lost.key) })]);
  });

  it("keeps the answer's status, never its body: 401, 429 with Retry-After, 500, a hang", async () => {
    const clock = inventory.sut.app.get<DeliveryClock>(DELIVERY_CLOCK);
    const relay = inventory.sut.app.get(DeliveryRelay);
    // The deliveries' clock, held and moved by the test: when the 429's wait runs out is exact.
    let at = Date.now();
    const held = jest.spyOn(clock, 'now').mockImplementation(() => new Date(at));
    const moveTo = (time: number) => {
      at = time;
      relay.kick();
    };
    try {
      const e = await episode();
      const host = `127.0.0.1:${jira.http.port}`;
      const failed = (error: string) =>
        eventually(async () => expect(await row(id)).toMatchObject({ state: 'pending', last_error: error }));
      jira.http.faults.push({ status: 401 });
      const id = await queue(channelId, e.alertId, 'alert.opened');
      await failed(
        `${host} answered HTTP 401 to look the work item up (check the username and the password or API token)`,
      );
      jira.http.faults.push({ status: 429, retryAfter: '120' }, { status: 500 }, { hang: true });
      moveTo(at + 1000);
      await failed(`${host} answered HTTP 429 to look the work item up`);
      const asked = at + 120_000;
      expect((await row(id)).next!.getTime()).toBe(asked);
      // A round a moment before the wait runs out sends nothing.
      at = asked - 1;
      const before = jira.http.requests.length;
      await relay.flush();
      expect(await row(id)).toMatchObject({ attempts: 2, state: 'pending' });
      expect(jira.http.requests).toHaveLength(before);

      moveTo(asked);
      await failed(`${host} answered HTTP 500 to look the work item up`);
      expect(await row(id)).toMatchObject({ attempts: 3 });
      // The hang, ended by the send timeout (4 s here), not by the fake's 10 s.
      moveTo(at + 1000);
      await failed(`Could not reach ${host} to look the work item up: timeout`);
      moveTo(at + 1000);
      await sent(id);
      expect(itemsOf(e.alertId)).toHaveLength(1);
      const log = await send(messages.inventory.listDeliveries, { channelId });
      expect(JSON.stringify(log)).not.toMatch(/sn-app-07|internal detail/);
    } finally {
      held.mockRestore();
    }
  });

  it("says a field the resolve transition requires is missing, and resolves with the mapping's resolve fields", async () => {
    const e = await episode();
    await sent(await queue(channelId, e.alertId, 'alert.opened'));
    const [item] = itemsOf(e.alertId);
    // The instance's resolve screen requires a resolution, which a stock project fills itself.
    jira.requiredOnResolve.push('resolution');
    try {
      await e.close();
      const id = await queue(channelId, e.alertId, 'alert.recovered');
      await eventually(async () =>
        expect(await row(id)).toMatchObject({
          state: 'pending',
          last_error: `127.0.0.1:${jira.http.port} answered HTTP 400 to resolve ${item.key} (a field it requires may be missing: check the channel's mapping)`,
        }),
      );
      expect(item.status).toBe('Open');
      const log = await send(messages.inventory.listDeliveries, { channelId });
      expect(JSON.stringify(log)).not.toMatch(/is required|errorMessages/);

      await setMapping(channelId, { ...mapping, resolveFields: { resolution: { name: 'Done' } } });
      await sent(id);
      expect(item).toMatchObject({ status: 'Resolved', fields: { resolution: { name: 'Done' } } });
      const bodies = resolves().map((r) => r.body);
      const comment = {
        comment: [{ add: { body: doc('All devices of the room answer again (Classroom Monitor).') } }],
      };
      // The attempts before the mapping gave the field went without it, and were refused.
      expect(bodies.length).toBeGreaterThanOrEqual(2);
      expect(bodies.slice(0, -1)).toEqual(
        Array(bodies.length - 1).fill({ transition: { id: '851' }, update: comment }),
      );
      expect(bodies.at(-1)).toEqual({
        transition: { id: '851' },
        fields: { resolution: { name: 'Done' } },
        update: comment,
      });
    } finally {
      jira.requiredOnResolve.length = 0;
      await setMapping(channelId, mapping);
    }
  });

  it('chaos: Jira is gone while the room recovers; once back, exactly one resolve and no second work item', async () => {
    const e = await episode();
    await sent(await queue(channelId, e.alertId, 'alert.opened'));
    const [item] = itemsOf(e.alertId);
    await jira.http.stop();
    await e.close();
    const id = await queue(channelId, e.alertId, 'alert.recovered');
    await eventually(async () => {
      const r = await row(id);
      expect(r.attempts).toBeGreaterThanOrEqual(2);
      expect(r.last_error).toBe(`Could not reach 127.0.0.1:${jira.http.port} to read ${item.key}: refused`);
    });
    expect(item.status).toBe('Open');
    await jira.http.start();
    await sent(id);
    // The reconciliation's round after it finds nothing left to mend.
    const clock = inventory.sut.app.get<DeliveryClock>(DELIVERY_CLOCK);
    const now = jest.spyOn(clock, 'now').mockReturnValue(new Date(Date.now() + 11 * 60_000));
    try {
      expect(await inventory.sut.app.get(IncidentReconciler).tick()).toBe(0);
    } finally {
      now.mockRestore();
    }
    expect(resolves()).toHaveLength(1);
    expect(item.status).toBe('Resolved');
    expect(itemsOf(e.alertId)).toHaveLength(1);
    expect(creates()).toHaveLength(1);
  });

  it('keeps the ServiceNow password and the Jira API token sealed: not in the stored row, never answered', async () => {
    const sn = await startFakeServiceNow({ username: 'cm.integration', secret: 'sn-pass-Qx7clear' });
    const desk = await startFakeJira({ username: 'av-bot@campus.edu', secret: 'ATATT3xFfGF0-clear-token' });
    try {
      const created = [
        await serviceNowChannel(sn, 'AV desk (sealed)'),
        await jiraChannel(desk, 'AV JSM (sealed)', mapping),
      ];
      const ids = created.map((c) => c.id);
      const stored = await sql<{ secret: string | null }>(
        inventory.sut,
        'SELECT * FROM inv.notification_channels WHERE id = ANY($1)',
        [ids],
      );
      expect(stored).toHaveLength(2);
      expect(stored.every((r) => r.secret)).toBe(true);
      const listed = await send(messages.inventory.listChannels);
      const edited = await setMapping(ids[1], { ...mapping, closeNotes: 'Back in service.' });
      const clear = /Qx7clear|clear-token/;
      expect(JSON.stringify(stored.map((r) => r.secret))).not.toMatch(clear);
      expect(JSON.stringify([created, listed, edited, stored])).not.toMatch(clear);
      // Sealed, not lost: each desk still gets its credential (the edit without one kept it).
      for (const id of ids) {
        const test = await send(messages.inventory.testChannel, { id });
        expect(test.delivery.state).toBe('sent');
      }
      expect(sn.http.requests.map((r) => r.authorization)).toEqual([
        `Basic ${Buffer.from('cm.integration:sn-pass-Qx7clear').toString('base64')}`,
      ]);
      expect(desk.http.requests.map((r) => r.authorization)).toEqual([
        `Basic ${Buffer.from('av-bot@campus.edu:ATATT3xFfGF0-clear-token').toString('base64')}`,
      ]);
    } finally {
      await sn.http.stop();
      await desk.http.stop();
    }
  });

  withSecondReplica(inventory, env, kit, () => ({
    http: jira.http,
    channelId,
    noun: 'work item',
    opened: itemsOf,
    creates,
    notes: (alertId) => (itemsOf(alertId)[0]?.comments ?? []).map((c) => textOf(c.body)),
  }));
});
