import { randomUUID } from 'node:crypto';
import { messages } from '@cm/contracts';
import { eventually } from '@cm/platform/testing';
import { DELIVERY_CLOCK, type DeliveryClock } from '../src/alerting/notifications/delivery-clock';
import { IncidentReconciler } from '../src/alerting/notifications/service-desk/incident-reconciler';
import { IncidentRepository } from '../src/alerting/notifications/service-desk/incident.repository';
import { inventoryUnderTest } from './support';
import { startFakeJira } from './support/fake-jira';
import { PRE_UTAH_CLOSE_CODES, startFakeServiceNow, UTAH_CLOSE_CODES } from './support/fake-servicenow';
import { appUrl, doc, serviceDeskEnv, serviceDeskKit } from './support/service-desk';
import { withSecondReplica } from './support/service-desk-replicas';

describe('ServiceNow and Jira Service Management channels', () => {
  const env = serviceDeskEnv();
  const inventory = inventoryUnderTest(env);
  const { send } = inventory;
  const kit = serviceDeskKit(inventory);
  const { row, sent, due, episode, queue, twoAtOnce, serviceNowChannel, jiraChannel, setMapping } = kit;

  describe('ServiceNow', () => {
    let sn: Awaited<ReturnType<typeof startFakeServiceNow>>;
    let channelId: string;
    beforeAll(async () => {
      sn = await startFakeServiceNow();
      const channel = await serviceNowChannel(sn, 'AV desk', {
        assignmentGroup: 'AV Support',
        callerId: 'cm.integration',
      });
      channelId = channel.id;
      expect(channel).toMatchObject({
        username: 'cm.integration',
        mapping: expect.objectContaining({ closeCode: 'Solution provided' }),
      });
      expect(JSON.stringify(await send(messages.inventory.listChannels))).not.toContain('sn-pass');
    });
    afterAll(() => sn.http.stop());
    beforeEach(() => {
      sn.http.requests.length = 0;
      sn.http.faults.length = 0;
      sn.http.outage = false;
    });

    it('opens one incident, notes devices joining, resolves it on recovery: the exact requests', async () => {
      const test = await send(messages.inventory.testChannel, { id: channelId });
      expect(test).toMatchObject({
        delivery: { state: 'sent' },
        message: '"AV desk" answered: its user can read incidents (the test opens none).',
      });
      const e = await episode();
      await sent(await queue(channelId, e.alertId, 'alert.opened'));
      await e.setDevices([e.display, e.projector]);
      await sent(await queue(channelId, e.alertId, 'alert.updated'));
      await e.setDevices([e.projector]);
      await sent(await queue(channelId, e.alertId, 'alert.updated'));
      await e.close();
      await sent(await queue(channelId, e.alertId, 'alert.recovered'));

      const key = `cm-${e.alertId}`;
      const [incident] = sn.incidents.filter((i) => i.correlation_id === key);
      const table = '/api/now/table/incident';
      const fields = 'sysparm_fields=sys_id,number,state';
      expect(sn.http.requests.map((r) => [r.method, r.path, r.body])).toEqual([
        ['GET', `${table}?sysparm_limit=1&sysparm_fields=sys_id`, null],
        [
          'GET',
          `${table}?sysparm_query=correlation_id=${key}^ORDERBYsys_created_on&${fields}&sysparm_limit=1`,
          null,
        ],
        [
          'POST',
          `${table}?${fields}`,
          {
            short_description: `${e.place}: 1 of 2 devices offline`,
            description: [
              `${e.place}: 1 of 2 devices offline, since 2026-11-24T19:59:00.000Z.`,
              `- Display (${e.display.ipAddress}): offline`,
              `Room in Classroom Monitor: ${appUrl}/rooms/${e.room.id}`,
              'Raised by Classroom Monitor; it resolves this incident when the room answers again.',
            ].join('\n'),
            correlation_id: key,
            correlation_display: 'Classroom Monitor',
            urgency: '2',
            impact: '2',
            assignment_group: 'AV Support',
            caller_id: 'cm.integration',
          },
        ],
        ['GET', `${table}/${incident.sys_id}?${fields}`, null],
        [
          'PATCH',
          `${table}/${incident.sys_id}?sysparm_fields=sys_id`,
          {
            work_notes: `Now offline: Projector (${e.projector.ipAddress}). ${e.place}: 2 of 2 devices offline.`,
          },
        ],
        ['GET', `${table}/${incident.sys_id}?${fields}`, null],
        [
          'PATCH',
          `${table}/${incident.sys_id}?sysparm_fields=sys_id`,
          {
            work_notes: `Answering again: Display (${e.display.ipAddress}). ${e.place}: 1 of 2 devices offline.`,
          },
        ],
        ['GET', `${table}/${incident.sys_id}?${fields}`, null],
        [
          'PATCH',
          `${table}/${incident.sys_id}?sysparm_fields=sys_id`,
          {
            state: '6',
            close_code: 'Solution provided',
            close_notes: 'All devices of the room answer again (Classroom Monitor).',
          },
        ],
      ]);
      expect(
        sn.http.requests.every(
          (r) => r.authorization === `Basic ${Buffer.from('cm.integration:sn-pass').toString('base64')}`,
        ),
      ).toBe(true);
      expect(incident.state).toBe('6');
      const ref = {
        channelId,
        channelName: 'AV desk',
        number: incident.number,
        url: `${sn.http.url}/nav_to.do?uri=incident.do%3Fsys_id%3D${incident.sys_id}`,
      };
      // The delivery log names the incident of each of the alert's messages.
      const log = await send(messages.inventory.listDeliveries, { channelId, limit: 4 });
      expect(log.items.map((d) => [d.kind, d.incident])).toEqual(
        ['alert.recovered', 'alert.updated', 'alert.updated', 'alert.opened'].map((kind) => [
          kind,
          { ...ref, state: 'resolved' },
        ]),
      );
      const refs = await inventory.sut.app.get(IncidentRepository).refs([e.alertId]);
      expect(refs).toEqual([
        {
          alertId: e.alertId,
          channelId,
          channelName: 'AV desk',
          number: incident.number,
          url: `${sn.http.url}/nav_to.do?uri=incident.do%3Fsys_id%3D${incident.sys_id}`,
          state: 'resolved',
        },
      ]);
    });

    it('opens one incident for two messages at once, and finds one an attempt opened before it died', async () => {
      const e = await twoAtOnce(channelId);
      expect(sn.incidents.filter((i) => i.correlation_id === `cm-${e.alertId}`)).toHaveLength(1);

      // Opened in ServiceNow, but the answer never recorded here (the replica died): found by its key.
      const f = await episode();
      sn.incidents.push({
        sys_id: 'ffff0000ffff0000ffff0000ffff0000',
        number: 'INC0099999',
        state: '2',
        correlation_id: `cm-${f.alertId}`,
        fields: {},
        work_notes: [],
      });
      await sent(await queue(channelId, f.alertId, 'alert.opened'));
      expect(sn.incidents.filter((i) => i.correlation_id === `cm-${f.alertId}`)).toHaveLength(1);
      expect(sn.http.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
    });

    it('leaves an incident a person closed as it is, and a new failure opens a new one', async () => {
      const e = await episode();
      await sent(await queue(channelId, e.alertId, 'alert.opened'));
      const [incident] = sn.incidents.filter((i) => i.correlation_id === `cm-${e.alertId}`);
      // The room's open alert links its incident.
      const [open] = await send(messages.inventory.listOpenAlerts, { roomId: e.room.id });
      expect(open.incidents).toEqual([
        expect.objectContaining({ channelName: 'AV desk', number: incident.number, state: 'open' }),
      ]);
      sn.closeByPerson(incident.number);
      await e.close();
      await sent(await queue(channelId, e.alertId, 'alert.recovered'));
      expect(sn.http.requests.filter((r) => r.method === 'PATCH')).toEqual([]);
      expect(incident.state).toBe('7');

      const again = await episode();
      await sent(await queue(channelId, again.alertId, 'alert.opened'));
      expect(sn.incidents.filter((i) => i.correlation_id === `cm-${again.alertId}`)).toHaveLength(1);
    });

    it("keeps the answer's status, never its body: 401, 429 with Retry-After, 500, a hang", async () => {
      const e = await episode();
      const host = `127.0.0.1:${sn.http.port}`;
      sn.http.faults.push({ status: 401 });
      const id = await queue(channelId, e.alertId, 'alert.opened');
      await eventually(async () => expect((await row(id)).attempts).toBeGreaterThanOrEqual(1));
      sn.http.faults.push({ status: 429, retryAfter: '120' }, { status: 500 }, { hang: true });
      const waited = await eventually(async () => {
        const r = await row(id);
        expect(r.last_error).toBe(`${host} answered HTTP 429 to look the incident up`);
        return r;
      });
      expect(waited.next!.getTime() - Date.now()).toBeGreaterThan(60_000);
      // The rest, without waiting two minutes: the delivery made due now.
      await due(id);
      await eventually(async () =>
        expect((await row(id)).last_error).toBe(`${host} answered HTTP 500 to look the incident up`),
      );
      await due(id);
      await eventually(async () =>
        expect((await row(id)).last_error).toBe(`Could not reach ${host} to look the incident up: timeout`),
      );
      await due(id);
      await sent(id);
      const log = await send(messages.inventory.listDeliveries, { channelId });
      expect(JSON.stringify(log)).not.toMatch(/sn-app-07|internal detail/);
    });

    it('400 mandatory close_code missing: says so, and resolves with the close code, notes and fields the mapping gives', async () => {
      const e = await episode();
      await sent(await queue(channelId, e.alertId, 'alert.opened'));
      const [{ mapping }] = (await send(messages.inventory.listChannels)).filter((c) => c.id === channelId);
      // An instance older than Utah: none of its close codes is the stock one we send by default
      // (taken as no close code), and it made a field of its own mandatory.
      sn.closeCodes.splice(0, sn.closeCodes.length, ...PRE_UTAH_CLOSE_CODES);
      sn.mandatoryOnResolve.push('u_av_cause');
      try {
        await e.close();
        const id = await queue(channelId, e.alertId, 'alert.recovered');
        const incident = sn.incidents.at(-1)!;
        const refused = `127.0.0.1:${sn.http.port} answered HTTP 400 to resolve ${incident.number} (a field it requires may be missing: check the channel's mapping)`;
        await eventually(async () => expect((await row(id)).last_error).toBe(refused));
        const patches = () => sn.http.requests.filter((r) => r.method === 'PATCH');
        // The field given, the close code still the stock one: refused still.
        await setMapping(channelId, { ...mapping, resolveFields: { u_av_cause: 'Network' } });
        await eventually(async () => {
          expect(patches().at(-1)?.body?.u_av_cause).toBe('Network');
          expect(await row(id)).toMatchObject({ state: 'pending', last_error: refused });
        });
        const log = await send(messages.inventory.listDeliveries, { channelId });
        expect(JSON.stringify(log)).not.toMatch(/Mandatory|close_code/);
        await setMapping(channelId, {
          ...mapping,
          // Its own state (it closes at once), close code and notes, and its field.
          resolveState: '7',
          closeCode: 'Solved (Permanently)',
          closeNotes: 'The room answers again; checked by Classroom Monitor.',
          resolveFields: { u_av_cause: 'Network' },
        });
        await sent(id);
        const resolve = `/api/now/table/incident/${incident.sys_id}?sysparm_fields=sys_id`;
        expect(patches().every((r) => r.path === resolve)).toBe(true);
        const bodies = patches().map((r) => r.body);
        const stock = {
          state: '6',
          close_code: 'Solution provided',
          close_notes: 'All devices of the room answer again (Classroom Monitor).',
        };
        // The attempts before the mapping gave the close code went with the stock one, and were refused.
        expect(bodies.slice(0, -1).map((b) => b?.close_code)).toEqual(
          Array(bodies.length - 1).fill('Solution provided'),
        );
        expect(bodies).toContainEqual(stock);
        expect(bodies).toContainEqual({ ...stock, u_av_cause: 'Network' });
        expect(bodies.at(-1)).toEqual({
          state: '7',
          close_code: 'Solved (Permanently)',
          close_notes: 'The room answers again; checked by Classroom Monitor.',
          u_av_cause: 'Network',
        });
        expect(incident).toMatchObject({
          state: '7',
          fields: expect.objectContaining({ close_code: 'Solved (Permanently)', u_av_cause: 'Network' }),
        });
      } finally {
        sn.mandatoryOnResolve.pop();
        sn.closeCodes.splice(0, sn.closeCodes.length, ...UTAH_CLOSE_CODES);
        await setMapping(channelId, mapping ?? {});
      }
    });

    it('chaos: ServiceNow is gone while the room recovers; once back, exactly one resolve and no second incident', async () => {
      const e = await episode();
      await sent(await queue(channelId, e.alertId, 'alert.opened'));
      await sn.http.stop();
      await e.close();
      const id = await queue(channelId, e.alertId, 'alert.recovered');
      await eventually(async () => {
        const r = await row(id);
        expect(r.attempts).toBeGreaterThanOrEqual(2);
        expect(r.last_error).toBe(
          `Could not reach 127.0.0.1:${sn.http.port} to read ${sn.incidents.at(-1)!.number}: refused`,
        );
      });
      await sn.http.start();
      await sent(id);
      // The reconciliation's round after it finds nothing left to mend.
      const clock = inventory.sut.app.get<DeliveryClock>(DELIVERY_CLOCK);
      const later = new Date(Date.now() + 11 * 60_000);
      const now = jest.spyOn(clock, 'now').mockReturnValue(later);
      try {
        expect(await inventory.sut.app.get(IncidentReconciler).tick()).toBe(0);
      } finally {
        now.mockRestore();
      }
      const resolves = sn.http.requests.filter((r) => r.method === 'PATCH' && r.body?.state === '6');
      expect(resolves).toHaveLength(1);
      expect(sn.incidents.filter((i) => i.correlation_id === `cm-${e.alertId}`)).toHaveLength(1);
    });

    it('reconciles every 10 minutes, one replica a round: a resolve that was missed is made', async () => {
      const e = await episode();
      await sent(await queue(channelId, e.alertId, 'alert.opened'));
      // The room recovered but its message was lost (gave up after hours of outage, say).
      await e.close();
      const clock = inventory.sut.app.get<DeliveryClock>(DELIVERY_CLOCK);
      const reconciler = inventory.sut.app.get(IncidentReconciler);
      const at = (minutes: number) =>
        jest.spyOn(clock, 'now').mockReturnValue(new Date(Date.now() + minutes * 60_000));
      try {
        at(30);
        // Two replicas ask at once: one does the round.
        const rounds = await Promise.all([reconciler.tick(), reconciler.tick()]);
        expect(rounds.filter((r) => r !== null)).toEqual([1]);
        await eventually(async () => expect(sn.incidents.at(-1)!.state).toBe('6'));
        // ...and its answer recorded here: until then the next round finds the incident still open.
        await eventually(async () => {
          const log = await send(messages.inventory.listDeliveries, { channelId });
          expect(log.items.find((d) => d.kind === 'incident.reconcile')?.state).toBe('sent');
        });
        at(35);
        expect(await reconciler.tick()).toBeNull();
        at(41);
        expect(await reconciler.tick()).toBe(0);
      } finally {
        jest.restoreAllMocks();
      }
      expect(sn.http.requests.filter((r) => r.method === 'PATCH' && r.body?.state === '6')).toHaveLength(1);
    });
    withSecondReplica(inventory, env, kit, () => ({
      http: sn.http,
      channelId,
      noun: 'incident',
      opened: (alertId) => sn.incidents.filter((i) => i.correlation_id === `cm-${alertId}`),
      creates: () => sn.http.requests.filter((r) => r.method === 'POST'),
      notes: (alertId) => sn.incidents.find((i) => i.correlation_id === `cm-${alertId}`)?.work_notes ?? [],
    }));
  });

  /**
   * The deliveries' clock, moved forward for the rounds below and left there between them: the
   * resolve a round queues is due at the round's time, and the relay, which sends it after the
   * round has returned, must read the same time (put back at once, it found the resolve not yet
   * due whenever it ran late).
   */
  let minutes = 60;
  let movedClock: jest.SpyInstance | undefined;
  /** A later reconciliation round, on a clock moved past the last one. */
  async function round(): Promise<number | null> {
    minutes += 11;
    return inventory.sut.app.get(IncidentReconciler).tick();
  }

  describe("the service desk's side: open incidents we lost track of", () => {
    beforeAll(() => {
      const clock = inventory.sut.app.get<DeliveryClock>(DELIVERY_CLOCK);
      movedClock = jest.spyOn(clock, 'now').mockImplementation(() => new Date(Date.now() + minutes * 60_000));
    });
    afterAll(() => movedClock?.mockRestore());

    it('ServiceNow: lists open incidents with our key, page by page, and resolves the one whose alert ended, once', async () => {
      const sn = await startFakeServiceNow();
      try {
        const channel = await serviceNowChannel(sn, 'AV desk (reconcile)');
        const incident = (n: number, key: string, state = '2') => ({
          sys_id: `${String(n).padStart(4, '0')}eeee0000eeee0000eeee0000eeee`,
          number: `INC${String(50000 + n).padStart(7, '0')}`,
          state,
          correlation_id: key,
          fields: {},
          work_notes: [],
        });
        // 120 open incidents of another installation sharing the instance (keys naming no alert
        // here), one of a person's with another key, then those of our alerts: the lost one on page 2.
        for (let n = 0; n < 120; n++) sn.incidents.push(incident(n, `cm-${randomUUID()}`));
        sn.incidents.push(incident(200, 'PRB-7'));
        const ended = await episode();
        await ended.close();
        const stillOpen = await episode();
        const resolvedByPerson = await episode();
        await resolvedByPerson.close();
        sn.incidents.push(
          incident(201, `cm-${ended.alertId}`),
          incident(202, `cm-${stillOpen.alertId}`),
          incident(203, `cm-${resolvedByPerson.alertId}`, '6'),
        );

        expect(await round()).toBe(1);
        const table = '/api/now/table/incident';
        const listing = `${table}?sysparm_query=correlation_idSTARTSWITHcm-^active=true^ORDERBYsys_created_on^ORDERBYsys_id&sysparm_fields=sys_id,number,state,correlation_id&sysparm_limit=100`;
        // The listing's requests (the resolve it queued may already be on its way).
        const listed = sn.http.requests.filter((r) => r.path.includes('STARTSWITH'));
        expect(listed.map((r) => [r.method, r.path])).toEqual([
          ['GET', `${listing}&sysparm_offset=0`],
          ['GET', `${listing}&sysparm_offset=100`],
        ]);
        const lost = sn.incidents.find((i) => i.number === 'INC0050201')!;
        await eventually(async () => expect(lost.state).toBe('6'));
        // Now tracked: the room's closed alert names it, and the delivery log says what was done
        // (once the desk's answer is recorded, which follows its change of state).
        await eventually(async () => {
          const log = await send(messages.inventory.listDeliveries, { channelId: channel.id });
          expect(log.items.map((d) => [d.kind, d.text, d.state, d.incident?.number])).toEqual([
            ['incident.reconcile', "Resolving INC0050201: the room's alert has ended", 'sent', 'INC0050201'],
          ]);
        });

        // The next round finds nothing to mend: one resolve, no incident opened, the others untouched.
        expect(await round()).toBe(0);
        const resolves = sn.http.requests.filter((r) => r.method === 'PATCH');
        expect(resolves.map((r) => [r.path.split('?')[0], r.body?.state])).toEqual([
          [`${table}/${lost.sys_id}`, '6'],
        ]);
        expect(sn.http.requests.filter((r) => r.method === 'POST')).toEqual([]);
        expect(sn.incidents.filter((i) => i.state !== '2').map((i) => i.number)).toEqual([
          'INC0050201',
          'INC0050203',
        ]);
      } finally {
        await sn.http.stop();
      }
    });

    it('ServiceNow: a listing that fails or hangs (ended by the send timeout) is left to the next round', async () => {
      const sn = await startFakeServiceNow();
      try {
        await serviceNowChannel(sn, 'AV desk (down)');
        const ended = await episode();
        await ended.close();
        sn.incidents.push({
          sys_id: 'abcd0000abcd0000abcd0000abcd0000',
          number: 'INC0077777',
          state: '1',
          correlation_id: `cm-${ended.alertId}`,
          fields: {},
          work_notes: [],
        });
        sn.http.faults.push({ hang: true });
        expect(await round()).toBe(0);
        sn.http.faults.push({ status: 500 });
        expect(await round()).toBe(0);
        expect(await round()).toBe(1);
        await eventually(async () => expect(sn.incidents[0].state).toBe('6'));
      } finally {
        await sn.http.stop();
      }
    });

    it('Jira Service Management: open work items labelled ours, paged by token; the lost one resolved once', async () => {
      const jira = await startFakeJira();
      try {
        const channel = await jiraChannel(jira, 'AV JSM (reconcile)', { projectKey: 'AV' });
        const item = (key: string, status: 'Open' | 'Resolved' = 'Open') => ({
          key: `AV-${jira.issues.length + 1}`,
          status,
          fields: { project: { key: 'AV' }, labels: ['classroom-monitor', key] },
          comments: [],
        });
        for (let n = 0; n < 105; n++) jira.issues.push(item(`cm-${randomUUID()}`));
        const ended = await episode();
        await ended.close();
        const stillOpen = await episode();
        jira.issues.push(item(`cm-${ended.alertId}`));
        jira.issues.push(item(`cm-${stillOpen.alertId}`));

        expect(await round()).toBe(1);
        const jql =
          'project = "AV" AND labels = "classroom-monitor" AND statusCategory != Done ORDER BY created ASC';
        const search = `/rest/api/3/search/jql?jql=${jql}&fields=status,labels&maxResults=100`;
        const listed = jira.http.requests.filter((r) => r.path.includes('statusCategory'));
        expect(listed.map((r) => r.path)).toEqual([search, `${search}&nextPageToken=100`]);
        await eventually(async () => expect(jira.issues[105].status).toBe('Resolved'));
        // ...and its answer recorded here: until then the next round finds the incident still open.
        await eventually(async () => {
          const [logged] = (await send(messages.inventory.listDeliveries, { channelId: channel.id })).items;
          expect(logged).toMatchObject({
            kind: 'incident.reconcile',
            state: 'sent',
            incident: { number: 'AV-106' },
          });
        });
        expect(await round()).toBe(0);
        expect(jira.http.requests.filter((r) => r.method === 'POST').map((r) => r.path)).toEqual([
          '/rest/api/3/issue/AV-106/transitions',
        ]);
        expect(jira.issues.filter((i) => i.status !== 'Open').map((i) => i.key)).toEqual(['AV-106']);
      } finally {
        await jira.http.stop();
      }
    });
  });

  it('ServiceNow: urgency and impact as the channel maps them; a class in the room now or soon takes urgency 1', async () => {
    const sn = await startFakeServiceNow();
    try {
      const channel = await serviceNowChannel(sn, 'AV desk (mapped)', {
        severity: { high: { urgency: '2', impact: '1' }, medium: { urgency: '3', impact: '3' } },
        createFields: { category: 'AV', u_source: 'Classroom Monitor' },
      });
      const levels = () =>
        sn.http.requests
          .filter((r) => r.method === 'POST')
          .map((r) => ({ urgency: r.body?.urgency, impact: r.body?.impact }));
      const some = await episode();
      await sent(await queue(channel.id, some.alertId, 'alert.opened'));
      const all = await episode();
      await all.setDevices([all.display, all.projector]);
      await sent(await queue(channel.id, all.alertId, 'alert.opened'));
      const inClass = await episode();
      await sent(await queue(channel.id, inClass.alertId, 'alert.opened', true));
      expect(levels()).toEqual([
        { urgency: '3', impact: '3' },
        { urgency: '2', impact: '1' },
        { urgency: '1', impact: '1' },
      ]);
      // The extra fields on create go with each.
      expect(
        sn.http.requests.filter((r) => r.method === 'POST').map((r) => [r.body?.category, r.body?.u_source]),
      ).toEqual(Array(3).fill(['AV', 'Classroom Monitor']));
    } finally {
      await sn.http.stop();
    }
  });

  describe('Jira Service Management', () => {
    it('opens a work item labelled with the key, comments internally, resolves with the Resolve transition', async () => {
      const jira = await startFakeJira();
      try {
        const channel = await jiraChannel(jira, 'AV service desk', { projectKey: 'AV' });
        expect((await send(messages.inventory.testChannel, { id: channel.id })).delivery.state).toBe('sent');
        const e = await episode();
        await sent(await queue(channel.id, e.alertId, 'alert.opened'));
        await e.setDevices([e.display, e.projector]);
        await sent(await queue(channel.id, e.alertId, 'alert.updated'));
        await e.close();
        await sent(await queue(channel.id, e.alertId, 'alert.recovered'));

        const [issue] = jira.issues;
        const key = `cm-${e.alertId}`;
        expect(jira.http.requests.map((r) => [r.method, r.path.split('?')[0]])).toEqual([
          ['GET', '/rest/api/3/myself'],
          ['GET', '/rest/api/3/search/jql'],
          ['POST', '/rest/api/3/issue'],
          ['GET', '/rest/api/3/issue/AV-1'],
          ['POST', '/rest/api/3/issue/AV-1/comment'],
          ['GET', '/rest/api/3/issue/AV-1'],
          ['GET', '/rest/api/3/issue/AV-1/transitions'],
          ['POST', '/rest/api/3/issue/AV-1/transitions'],
        ]);
        expect(jira.http.requests[1].path).toBe(
          `/rest/api/3/search/jql?jql=project = "AV" AND labels = "${key}" ORDER BY created ASC&fields=status&maxResults=1`,
        );
        expect(jira.http.requests[2].body).toEqual({
          fields: {
            project: { key: 'AV' },
            issuetype: { name: '[System] Incident' },
            summary: `${e.place}: 1 of 2 devices offline`,
            description: doc(
              `${e.place}: 1 of 2 devices offline, since 2026-11-24T19:59:00.000Z.`,
              `- Display (${e.display.ipAddress}): offline`,
              `Room in Classroom Monitor: ${appUrl}/rooms/${e.room.id}`,
              'Raised by Classroom Monitor; it resolves this incident when the room answers again.',
            ),
            labels: ['classroom-monitor', key],
            priority: { name: 'Medium' },
          },
        });
        // An internal comment: JSM's property, which agents see and the customer does not.
        expect(jira.http.requests[4].body).toEqual({
          body: doc(`Now offline: Projector (${e.projector.ipAddress}). ${e.place}: 2 of 2 devices offline.`),
          properties: [{ key: 'sd.public.comment', value: { internal: true } }],
        });
        expect(issue.comments[0]).toMatchObject({ internal: true });
        expect(jira.http.requests[7].body).toEqual({
          transition: { id: '851' },
          update: {
            comment: [{ add: { body: doc('All devices of the room answer again (Classroom Monitor).') } }],
          },
        });
        expect(issue.status).toBe('Resolved');
        expect(jira.issues).toHaveLength(1);
      } finally {
        await jira.http.stop();
      }
    });

    it('opens with the work type, priorities and extra fields the channel maps, and resolves by its transition, fields and comment', async () => {
      const jira = await startFakeJira();
      try {
        const channel = await jiraChannel(jira, 'AV JSM (mapped)', {
          projectKey: 'AV',
          issueType: 'Incident',
          priority: { high: 'Highest', medium: 'Low' },
          createFields: { customfield_10010: 'Classroom AV' },
          resolveTransition: 'Mark as fixed',
          resolveFields: { resolution: { name: 'Fixed' } },
          closeNotes: 'Back in service.',
        });
        const e = await episode();
        await sent(await queue(channel.id, e.alertId, 'alert.opened'));
        await e.close();
        await sent(await queue(channel.id, e.alertId, 'alert.recovered'));
        const posts = jira.http.requests.filter((r) => r.method === 'POST');
        expect(posts.map((r) => r.path)).toEqual(['/rest/api/3/issue', '/rest/api/3/issue/AV-1/transitions']);
        expect(posts[0].body?.fields).toMatchObject({
          issuetype: { name: 'Incident' },
          priority: { name: 'Low' },
          customfield_10010: 'Classroom AV',
        });
        expect(posts[1].body).toEqual({
          transition: { id: '871' },
          fields: { resolution: { name: 'Fixed' } },
          update: { comment: [{ add: { body: doc('Back in service.') } }] },
        });
        expect(jira.issues[0].status).toBe('Resolved');
      } finally {
        await jira.http.stop();
      }
    });

    it('raises a class-time alert as High, leaves a work item a person closed, and keeps a 401 to its status and what to check', async () => {
      const jira = await startFakeJira();
      try {
        const channel = await jiraChannel(jira, 'AV JSM', { projectKey: 'AV' });
        jira.http.faults.push({ status: 401 });
        const failed = await send(messages.inventory.testChannel, { id: channel.id });
        expect(failed.message).toBe(
          `The test message to "AV JSM" failed: 127.0.0.1:${jira.http.port} answered HTTP 401 to read the integration account (check the username and the password or API token)`,
        );
        const e = await episode();
        // A class in the room now or soon: the priority for high, whatever the devices.
        await sent(await queue(channel.id, e.alertId, 'alert.opened', true));
        const created = jira.http.requests.find((r) => r.method === 'POST' && r.path === '/rest/api/3/issue');
        expect((created?.body?.fields as { priority: unknown }).priority).toEqual({ name: 'High' });
        jira.closeByPerson('AV-1');
        await e.close();
        await sent(await queue(channel.id, e.alertId, 'alert.recovered'));
        expect(jira.http.requests.filter((r) => r.path.includes('/transitions'))).toEqual([]);
        expect(jira.issues[0].status).toBe('Closed');
      } finally {
        await jira.http.stop();
      }
    });
  });
});
