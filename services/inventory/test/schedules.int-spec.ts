import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo } from 'node:net';
import path from 'node:path';
import {
  type Building,
  ErrorCode,
  messages,
  type Room,
  type ScheduleOccurrence,
  type ScheduleSource,
} from '@cm/contracts';
import { SchedulePoller } from '../src/schedules/feeds/schedule-poller';
import { SCHEDULE_CLOCK } from '../src/schedules/schedule-clock';
import { failureOf, inventoryUnderTest, sql, startInventory } from './support';
import { HeldClock } from './support/timetable';

const MINUTE = 60_000;
const fixture = (name: string) =>
  readFileSync(path.join(__dirname, '../src/schedules/calendar/fixtures', name), 'utf8');
const times = (classes: ScheduleOccurrence[]) => classes.map((c) => `${c.title} ${c.start}–${c.end}`);

/**
 * An iCalendar feed on loopback that answers as the test says: ETag and 304, 5xx, never, or
 * slowly (the headers and half the calendar at once, the rest 2 s later); first `redirects`
 * redirects to itself, or one to `redirectTo`.
 */
class FeedServer {
  mode: 'ok' | 'error' | 'slow' | 'trickle' = 'ok';
  body = fixture('new-york.ics');
  etag = '"v1"';
  redirects = 0;
  redirectTo: string | null = null;
  readonly requests: { ifNoneMatch: string | undefined }[] = [];
  private server!: Server;

  constructor(private readonly host = '127.0.0.1') {}

  async start(): Promise<void> {
    this.server = createServer((req, res) => this.answer(req, res));
    await new Promise<void>((resolve) => this.server.listen(0, this.host, resolve));
  }

  get url(): string {
    return `http://${this.host}:${(this.server.address() as AddressInfo).port}/rooms/hall-a-101.ics`;
  }

  private answer(req: IncomingMessage, res: ServerResponse): void {
    this.requests.push({ ifNoneMatch: req.headers['if-none-match'] });
    if (this.mode === 'slow') return; // never answers: the fetch's timeout ends it
    if (this.mode === 'error') return void res.writeHead(503).end('down for maintenance');
    if (this.redirectTo) return void res.writeHead(302, { location: this.redirectTo }).end();
    const hop = Number(new URL(req.url!, 'http://feed').searchParams.get('hop') ?? 0);
    if (hop < this.redirects) return void res.writeHead(302, { location: `?hop=${hop + 1}` }).end();
    if (req.headers['if-none-match'] === this.etag) return void res.writeHead(304).end();
    res.writeHead(200, { 'content-type': 'text/calendar', etag: this.etag });
    if (this.mode !== 'trickle') return void res.end(this.body);
    const half = Math.floor(this.body.length / 2);
    res.write(this.body.slice(0, half));
    setTimeout(() => res.end(this.body.slice(half)), 2000).unref();
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

describe('inventory class schedules', () => {
  const env = {
    ALERTS_ALLOWED_TARGETS: '127.0.0.1',
    SCHEDULE_FETCH_TIMEOUT_MS: '500',
    // Rounds run when the test asks (and when a feed is added), not on a timer.
    SCHEDULE_POLL_TICK_MS: '3600000',
    SCHEDULE_TIME_ZONE: 'America/New_York',
  };
  const inventory = inventoryUnderTest(env);
  const { make, send } = inventory;
  const feed = new FeedServer();
  const clock = new HeldClock('2026-03-01T12:00:00Z');
  /** The held time, as the sources' times read. */
  const now = () => new Date(clock.at).toISOString();
  let hallA: Building;
  let room101: Room, room102: Room;

  const poll = () => inventory.sut.app.get(SchedulePoller).pollNow();
  const later = (minutes: number) => (clock.at += minutes * MINUTE);
  const source = async (id: string) =>
    (await send(messages.inventory.listScheduleSources)).find((s) => s.id === id) as ScheduleSource;
  const classesOf = (roomId: string, from = '2026-03-01T00:00:00Z', to = '2026-03-15T00:00:00Z') =>
    send(messages.inventory.roomSchedule, { roomId, from, to });
  /** Room 101's schedule, read from the test's feed. */
  const feedOf101 = () =>
    send(messages.inventory.createScheduleSource, {
      name: 'Hall A 101 feed',
      roomId: room101.id,
      buildingId: null,
      url: feed.url,
    });
  const upload = (id: string, text: string) =>
    send(messages.inventory.uploadScheduleFile, { id, fileName: 'timetable', text });

  beforeAll(async () => {
    await feed.start();
    clock.hold(inventory.sut, [SCHEDULE_CLOCK]);
  });
  afterAll(() => feed.close());

  beforeEach(async () => {
    clock.set('2026-03-01T12:00:00Z');
    Object.assign(feed, { mode: 'ok', redirects: 0, redirectTo: null });
    await sql(inventory.sut, 'DELETE FROM inv.schedule_locations');
    await sql(inventory.sut, 'DELETE FROM inv.buildings');
    // A round an earlier test started (a feed added is read at once) may still be reading: its
    // request must not be counted as this test's.
    await poll();
    feed.requests.length = 0;
    hallA = await make.building({ name: 'Hall A' });
    room101 = await make.room(hallA.id, { name: '101' });
    room102 = await make.room(hallA.id, { name: '102' });
  });

  it("expands an uploaded calendar's recurrences into the room's classes: local times across the clock change, without the EXDATE, with the moved lecture, none on the holiday", async () => {
    const created = await send(messages.inventory.createScheduleSource, {
      name: 'Hall A 101 timetable',
      roomId: room101.id,
      buildingId: null,
      url: null,
    });
    expect(created).toMatchObject({ kind: 'file', lastGoodAt: null, occurrences: 0 });
    const saved = await upload(created.id, fixture('new-york.ics'));
    expect(saved).toMatchObject({ kind: 'file', lastGoodAt: now(), problems: [], unmatched: 0 });

    expect(times(await classesOf(room101.id, '2026-03-01T00:00:00Z', '2026-03-20T00:00:00Z'))).toEqual([
      'ECON 101 2026-03-02T15:00:00.000Z–2026-03-02T16:15:00.000Z',
      'Skipped hour 2026-03-08T07:30:00.000Z–2026-03-08T08:00:00.000Z',
      'ECON 101 (moved) 2026-03-09T17:00:00.000Z–2026-03-09T18:15:00.000Z',
      'ECON 101 2026-03-11T14:00:00.000Z–2026-03-11T15:15:00.000Z',
    ]);
    // Kept 14 days ahead: the class of 18 March comes in as the days pass (the file is expanded afresh).
    later(6 * 60 * 24 + 6 * 60);
    await poll();
    expect(times(await classesOf(room101.id, '2026-03-17T00:00:00Z', '2026-03-20T00:00:00Z'))).toEqual([
      'ECON 101 2026-03-18T14:00:00.000Z–2026-03-18T15:15:00.000Z',
    ]);
  });

  it('refuses a timetable with a bad line, saying which line and why, and keeps the classes in use', async () => {
    const { id } = await send(messages.inventory.createScheduleSource, {
      name: 'Hall A',
      roomId: null,
      buildingId: hallA.id,
      url: null,
    });
    await upload(id, 'Location,Title,Date,Start,End\nHall A 101,ECON 101,2026-03-02,10:00,11:15\n');
    const failure = await failureOf(
      upload(
        id,
        'Location,Title,Date,Start,End\nHall A 101,ECON 101,2026-03-02,10:00,11:15\nHall A 102,HIST 150,2026-02-31,9:00 AM,10:15 AM\n',
      ),
    );
    expect(failure.code).toBe(ErrorCode.SCHEDULE_FILE_INVALID);
    expect(failure.message).toContain('line 3: Date "2026-02-31" is not a date');
    expect(failure.errors).toEqual([{ path: 'line 3', message: expect.stringContaining('2026-02-31') }]);
    expect(times(await classesOf(room101.id))).toEqual([
      'ECON 101 2026-03-02T15:00:00.000Z–2026-03-02T16:15:00.000Z',
    ]);
  });

  it("places a building's classes by LOCATION: the room's name, else an administrator's mapping; lists what is unmatched", async () => {
    const { id } = await send(messages.inventory.createScheduleSource, {
      name: 'Hall A timetable',
      roomId: null,
      buildingId: hallA.id,
      url: null,
    });
    const saved = await upload(
      id,
      [
        'Room,Event Name,Start Date,Start Time,End Time',
        'HALL A  101,ECON 101,3/2/2026,10:00 AM,11:15 AM',
        'Lecture Theatre B,CHEM 110,3/3/2026,1:00 PM,2:15 PM',
      ].join('\n'),
    );
    expect(saved).toMatchObject({ occurrences: 2, unmatched: 1 });
    expect(await send(messages.inventory.listScheduleLocations, { unmatched: 'true' })).toEqual([
      { location: 'Lecture Theatre B', roomId: null, matchedBy: null, sourceIds: [id], occurrences: 1 },
    ]);

    const mapped = await send(messages.inventory.mapScheduleLocation, {
      location: 'lecture theatre  b',
      roomId: room102.id,
    });
    expect(mapped).toMatchObject({ roomId: room102.id, matchedBy: 'mapping', occurrences: 1 });
    expect(await send(messages.inventory.listScheduleLocations, { unmatched: 'true' })).toEqual([]);
    expect(times(await classesOf(room102.id))).toEqual([
      'CHEM 110 2026-03-03T18:00:00.000Z–2026-03-03T19:15:00.000Z',
    ]);
    expect(times(await classesOf(room101.id))).toEqual([
      'ECON 101 2026-03-02T15:00:00.000Z–2026-03-02T16:15:00.000Z',
    ]);
    // A room added later whose name is a location's takes its classes at once.
    await send(messages.inventory.mapScheduleLocation, { location: 'Lecture Theatre B', roomId: null });
    const theatre = await make.room(hallA.id, { name: 'Lecture Theatre B' });
    expect(times(await classesOf(theatre.id))).toEqual([
      'CHEM 110 2026-03-03T18:00:00.000Z–2026-03-03T19:15:00.000Z',
    ]);
    const unknownRoom = '00000000-0000-4000-8000-000000000000';
    expect(
      (await failureOf(send(messages.inventory.mapScheduleLocation, { location: 'X', roomId: unknownRoom })))
        .code,
    ).toBe(ErrorCode.ROOM_NOT_FOUND);
  });

  it('polls a feed with If-None-Match; a failing feed keeps its last good classes, says since when, and is tried again later and later', async () => {
    const created = await feedOf101();
    expect(created.kind).toBe('feed');
    await poll();
    const first = await source(created.id);
    expect(first).toMatchObject({ lastGoodAt: now(), failingSince: null, lastError: null });
    expect(await classesOf(room101.id)).toHaveLength(4);
    expect(feed.requests).toEqual([{ ifNoneMatch: undefined }]);

    // Not due before the interval.
    later(5);
    await poll();
    expect(feed.requests).toHaveLength(1);
    later(10);
    await poll();
    expect(feed.requests.at(-1)).toEqual({ ifNoneMatch: '"v1"' });
    expect((await source(created.id)).lastGoodAt).toBe(now());

    feed.mode = 'error';
    later(15);
    await poll();
    const failedAt = now();
    expect(await source(created.id)).toMatchObject({
      failingSince: failedAt,
      lastError: expect.stringContaining('HTTP 503'),
    });
    expect(await classesOf(room101.id)).toHaveLength(4);

    // Each failure doubles the wait: the second failure after 15 minutes, the third after 30.
    later(15);
    await poll();
    expect(feed.requests).toHaveLength(4);
    later(15);
    await poll();
    expect(feed.requests).toHaveLength(4);
    feed.mode = 'slow';
    later(15);
    await poll();
    expect(feed.requests).toHaveLength(5);
    expect(await source(created.id)).toMatchObject({
      failingSince: failedAt,
      lastError: 'The feed did not answer within 0.5 s',
    });

    feed.mode = 'ok';
    later(60);
    await poll();
    expect(await source(created.id)).toMatchObject({
      lastGoodAt: now(),
      failingSince: null,
      lastError: null,
    });
  });

  it('gives up on a feed whose answer is slow to arrive, the whole answer counted, and keeps its classes', async () => {
    const { id } = await feedOf101();
    await poll();
    expect(await classesOf(room101.id)).toHaveLength(4);
    const lastGood = now();

    // A new calendar (another ETag), whose second half comes after the fetch's 0.5 s.
    feed.etag = '"v2"';
    feed.mode = 'trickle';
    try {
      later(15);
      await poll();
      expect(feed.requests.at(-1)).toEqual({ ifNoneMatch: '"v1"' });
      expect(await source(id)).toMatchObject({
        lastGoodAt: lastGood,
        failingSince: now(),
        lastError: 'The feed did not answer within 0.5 s',
      });
      expect(await classesOf(room101.id)).toHaveLength(4);
    } finally {
      feed.etag = '"v1"';
    }
  });

  it("starts afresh when a feed's URL is edited: the old URL's failure is forgotten and the new one read at once", async () => {
    const input = { name: 'Hall A 101 feed', roomId: room101.id, buildingId: null, url: feed.url };
    // Failing before the source exists: creating it asks for a read at once, which must fail too.
    feed.mode = 'error';
    const { id } = await send(messages.inventory.createScheduleSource, input);
    await poll();
    expect((await source(id)).failingSince).toBe(now());

    feed.mode = 'ok';
    later(1);
    const edited = await send(messages.inventory.updateScheduleSource, {
      id,
      changes: { ...input, url: `${feed.url}?term=spring` },
    });
    expect(edited).toMatchObject({ failingSince: null, lastError: null });
    await poll();
    expect(await source(id)).toMatchObject({ lastGoodAt: now(), failingSince: null });
    expect(await classesOf(room101.id)).toHaveLength(4);
  });

  it('reads a feed whose events are partly broken, listing them by line', async () => {
    feed.body = fixture('microsoft-365.ics');
    try {
      const { id } = await send(messages.inventory.createScheduleSource, {
        name: 'Hall A 101 (Outlook)',
        roomId: room101.id,
        buildingId: null,
        url: feed.url,
      });
      await poll();
      expect(await source(id)).toMatchObject({
        lastError: null,
        problems: [
          { line: 37, message: expect.stringContaining('Mars Standard Time') },
          { line: 42, message: 'It has no DTSTART' },
        ],
      });
      expect(times(await classesOf(room101.id))).toContain(
        'HIST 150 2026-03-03T14:00:00.000Z–2026-03-03T15:15:00.000Z',
      );
    } finally {
      feed.body = fixture('new-york.ics');
    }
  });

  it('refuses a feed URL the webhook address rules refuse, and a file for a feed', async () => {
    const refused = await failureOf(
      send(messages.inventory.createScheduleSource, {
        name: 'Internal',
        roomId: room101.id,
        buildingId: null,
        url: 'http://10.1.2.3/timetable.ics',
      }),
    );
    expect(refused.code).toBe(ErrorCode.SCHEDULE_URL_REFUSED);
    expect(refused.message).toContain('ALERTS_ALLOWED_TARGETS');

    const { id } = await send(messages.inventory.createScheduleSource, {
      name: 'Feed',
      roomId: room101.id,
      buildingId: null,
      url: feed.url,
    });
    expect((await failureOf(upload(id, fixture('new-york.ics')))).code).toBe(ErrorCode.SCHEDULE_IS_FEED);
    await poll(); // the read the new feed started, done before the next test clears the rooms
    const noRoom = await failureOf(
      send(messages.inventory.createScheduleSource, {
        name: 'Nowhere',
        roomId: '00000000-0000-4000-8000-000000000000',
        buildingId: null,
        url: null,
      }),
    );
    expect(noRoom.code).toBe(ErrorCode.ROOM_NOT_FOUND);
  });

  it('follows up to three redirects, judging each address by the webhook rules: nothing is fetched from a refused one', async () => {
    const refused = new FeedServer('127.0.0.2'); // loopback, which ALERTS_ALLOWED_TARGETS does not list
    await refused.start();
    try {
      feed.redirects = 3;
      const { id } = await feedOf101();
      await poll();
      expect(await source(id)).toMatchObject({ lastGoodAt: now(), lastError: null });
      expect(feed.requests).toHaveLength(4);
      expect(await classesOf(room101.id)).toHaveLength(4);

      feed.redirects = 4;
      later(15);
      await poll();
      expect(await source(id)).toMatchObject({
        failingSince: now(),
        lastError: 'The feed redirected more than 3 times',
      });
      expect(feed.requests).toHaveLength(8);

      feed.redirectTo = refused.url;
      later(15);
      await poll();
      expect(feed.requests).toHaveLength(9);
      expect((await source(id)).lastError).toMatch(
        /^Schedule feeds may not go to 127\.0\.0\.2, .* If this feed is meant to be reached, .*ALERTS_ALLOWED_TARGETS$/,
      );
      expect(refused.requests).toEqual([]);
      expect(await classesOf(room101.id)).toHaveLength(4);
    } finally {
      await refused.close();
    }
  });

  it('has a due feed fetched once, however many replicas look for it at the same time', async () => {
    const replica = await startInventory(inventory.namespace, env);
    try {
      clock.hold(replica, [SCHEDULE_CLOCK]);
      // The replica's first round, at start, read its clock before it was held: on a loaded
      // machine that round's claim could reach the database after the feed below was added, and
      // take it on a lease of this year's time, which the held (earlier) time of the other replica
      // finds already run out. Nothing is shared until it has ended.
      await replica.app.get(SchedulePoller).pollNow();
      await send(messages.inventory.createScheduleSource, {
        name: 'Feed',
        roomId: room101.id,
        buildingId: null,
        url: feed.url,
      });
      const both = () => Promise.all([poll(), replica.app.get(SchedulePoller).pollNow()]);
      await both();
      expect(feed.requests).toHaveLength(1);
      for (let round = 2; round <= 4; round++) {
        later(15);
        await both();
        expect(feed.requests).toHaveLength(round);
      }
    } finally {
      await replica.close();
    }
  });
});
