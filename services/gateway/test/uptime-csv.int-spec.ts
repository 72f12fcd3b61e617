import { get } from 'node:http';
import { messages, type ReportPage, uptimeCsvHeader, uptimeCsvLine } from '@cm/contracts';
import { MetricsService, RpcClient } from '@cm/platform';
import { eventually, sample, testDatabaseUrl } from '@cm/platform/testing';
import { Client } from 'pg';
import { UptimeReportService } from '../src/inventory/uptime-report.service';
import { startAuthAndGateway } from './support';

/** 120 devices and chunks of 1,024 bytes: many chunks per report. */
const DEVICES = 120;
/** Devices of long names added for the last tests: a report of 10 MB, more than a connection buffers. */
const MORE_DEVICES = 20_000;
const inventoryEnv = { INVENTORY_REPORT_CHUNK_BYTES: '1024' };

/** A download read as it arrives: its first bytes, its end (complete or cut), and a way to drop it. */
function download(url: string, cookie: string) {
  let text = '';
  let gotFirst: (text: string) => void = () => {};
  const first = new Promise<string>((resolve) => (gotFirst = resolve));
  let drop = () => {};
  const end = new Promise<{ status: number; text: string; complete: boolean }>((resolve) => {
    const req = get(url, { headers: { cookie } }, (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        gotFirst(text);
      });
      res.on('close', () => resolve({ status: res.statusCode ?? 0, text, complete: res.complete }));
    });
    req.on('error', () => resolve({ status: 0, text, complete: false }));
    drop = () => req.destroy();
  });
  return { first, end, drop: () => drop() };
}

/** A gate the test opens: `wait()` resolves once `open()` is called. */
function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { wait: () => opened, open: () => open() };
}

describe('the uptime CSV through the gateway', () => {
  let sut: Awaited<ReturnType<typeof startAuthAndGateway>>;
  let cookie: string;
  let db: Client;
  let schema: string;

  beforeAll(async () => {
    sut = await startAuthAndGateway({}, { inventory: true, inventoryEnv });
    cookie = await sut.adminCookie();
    db = new Client({ connectionString: testDatabaseUrl });
    await db.connect();
    schema = `"${sut.namespace}_inventory"`;
    await db.query(`INSERT INTO ${schema}.buildings (name) SELECT 'Hall ' || g FROM generate_series(1, 3) g`);
    await db.query(
      `INSERT INTO ${schema}.rooms (building_id, name, type, floor, capacity) SELECT b.id, 'Room ' || g, 'Classroom', '1', 30
         FROM ${schema}.buildings b, generate_series(1, 4) g`,
    );
    await db.query(
      `INSERT INTO ${schema}.equipment (room_id, name, type) SELECT r.id, 'Display, ' || g, 'Projector'
         FROM ${schema}.rooms r, generate_series(1, ${DEVICES / 12}) g`,
    );
  });
  afterAll(async () => {
    await db?.end();
    await sut?.close();
  });
  /** Gates of held pulls, opened after each test: a pull still held would hold the gateway's shutdown. */
  const held: { open: () => void }[] = [];
  afterEach(() => {
    for (const pulls of held.splice(0)) pulls.open();
    jest.restoreAllMocks();
  });

  const url = () => `${sut.base}/api/reports/uptime.csv`;
  const metrics = () => sut.service('inventory').get(MetricsService).render();
  const streams = async (outcome: string) =>
    sample(await metrics(), `cm_inventory_report_streams_total{outcome="${outcome}"}`) ?? 0;
  const handled = async (pattern: string) =>
    sample(await metrics(), `cm_nats_handle_duration_seconds_count{outcome="ok",pattern="${pattern}"}`) ?? 0;
  /** Inventory's connections running the report's COPY, or holding its transaction once it is read. */
  const reportBackends = async () =>
    (
      await db.query<{ pid: number; state: string; query: string; waiting: boolean; writing: boolean }>(
        `SELECT pid, state, query, wait_event_type = 'Lock' AS waiting, wait_event = 'ClientWrite' AS writing
           FROM pg_stat_activity
          WHERE application_name = 'classroom-monitor-inventory' AND pid <> pg_backend_pid()
            AND state <> 'idle' AND query LIKE 'COPY (%'`,
      )
    ).rows;
  /** Holds the gateway's pulls from the `nth` on until the gate opens. */
  const holdPulls = (nth: number) => {
    const pulls = gate();
    held.push(pulls);
    const rpc = sut.gateway.app.get(RpcClient);
    const pull = rpc.pullChunk.bind(rpc);
    let count = 0;
    jest.spyOn(rpc, 'pullChunk').mockImplementation(async (...args) => {
      if (++count >= nth) await pulls.wait();
      return pull(...args);
    });
    return pulls;
  };

  it('sends the whole report from one query, its first rows while the query is still being read', async () => {
    const pages = await handled(messages.inventory.report.subject);
    const chunks = await handled(messages.inventory.reportChunk.subject);
    const completed = await streams('completed');
    const pulls = holdPulls(2);

    const csv = download(url(), cookie);
    expect(await csv.first).toMatch(/^Building,Room,Equipment Name,/);
    // The client has rows; the query behind them still holds its connection, to be read on.
    await eventually(async () => expect(await reportBackends()).toHaveLength(1));
    pulls.open();

    const { status, text, complete } = await csv.end;
    expect({ status, complete }).toEqual({ status: 200, complete: true });
    // The same bytes as the report's pages give, line for line.
    const page = await sut.gateway.app
      .get(RpcClient)
      .send(messages.inventory.report, { limit: 1000, asOf: new Date().toISOString() });
    expect(text).toBe(uptimeCsvHeader + (page as ReportPage).items.map(uptimeCsvLine).join(''));
    expect(text.split('\r\n')).toHaveLength(DEVICES + 2);
    await eventually(async () => expect(await streams('completed')).toBe(completed + 1));
    // One query: no page of the report was asked for the CSV (the one above is the test's), many chunks.
    expect(await handled(messages.inventory.report.subject)).toBe(pages + 1);
    expect((await handled(messages.inventory.reportChunk.subject)) - chunks).toBeGreaterThan(5);
    expect(await reportBackends()).toEqual([]);
  });

  it('cancels the query when the download stops part-way', async () => {
    const cancelled = await streams('cancelled');
    const pulls = holdPulls(2);
    const csv = download(url(), cookie);
    await csv.first;
    await eventually(async () => expect(await reportBackends()).toHaveLength(1));

    csv.drop();
    await eventually(async () => expect(await streams('cancelled')).toBe(cancelled + 1));
    expect(await reportBackends()).toEqual([]);
    pulls.open();
  });

  it('cancels the query when the download stops before it began, even while the query waits', async () => {
    const cancelled = await streams('cancelled');
    const locker = new Client({ connectionString: testDatabaseUrl });
    await locker.connect();
    try {
      // The report's query cannot start while the maintenance windows are locked.
      await locker.query('BEGIN');
      await locker.query(`LOCK TABLE ${schema}.maintenance_windows IN ACCESS EXCLUSIVE MODE`);
      const csv = download(url(), cookie);
      await eventually(async () =>
        expect(await reportBackends()).toEqual([expect.objectContaining({ waiting: true })]),
      );

      csv.drop();
      expect((await csv.end).complete).toBe(false);
      // Interrupted in PostgreSQL while the lock is still held: the query no longer waits.
      await eventually(async () => expect(await reportBackends()).toEqual([]));
      await eventually(async () => expect(await streams('cancelled')).toBe(cancelled + 1));
    } finally {
      await locker.query('ROLLBACK');
      await locker.end();
    }
  });

  it('asks for no more chunks once the download has stopped between two', async () => {
    const cancelled = await streams('cancelled');
    const pulls = jest.spyOn(sut.gateway.app.get(RpcClient), 'pullChunk');
    const download = new AbortController();
    const csv = (await sut.gateway.app.get(UptimeReportService).csv(download.signal))[Symbol.asyncIterator]();
    expect((await csv.next()).done).toBe(false);
    expect((await csv.next()).done).toBe(false);
    expect(pulls).toHaveBeenCalledTimes(2);

    // Stopped while the response wrote the last chunk: the next one is refused, not asked for. A
    // pull sent anyway would be left unawaited, and its failure would end the gateway.
    download.abort(new Error('The download stopped'));
    await expect(csv.next()).rejects.toThrow('The download stopped');
    expect(pulls).toHaveBeenCalledTimes(2);
    await eventually(async () => expect(await streams('cancelled')).toBe(cancelled + 1));
    expect(await reportBackends()).toEqual([]);
  });

  describe('with a report larger than a connection buffers', () => {
    beforeAll(async () => {
      const long = (prefix: string) => `rpad('${prefix}', 110, '.') || ' ' || g`;
      await db.query(`INSERT INTO ${schema}.buildings (name) VALUES (rpad('Large hall', 120, '.'))`);
      await db.query(
        `INSERT INTO ${schema}.rooms (building_id, name, type, floor, capacity)
         SELECT b.id, ${long('Room')}, 'Classroom', '1', 30
           FROM ${schema}.buildings b, generate_series(1, 100) g WHERE b.name LIKE 'Large hall%'`,
      );
      // Nobody monitors them: their change events for the monitor go in the same transaction.
      await db.query('BEGIN');
      await db.query(
        `INSERT INTO ${schema}.equipment (room_id, name, type)
         SELECT r.id, ${long('Display')}, rpad('Projector', 120, '.')
           FROM ${schema}.rooms r JOIN ${schema}.buildings b ON b.id = r.building_id,
                generate_series(1, ${MORE_DEVICES / 100}) g
          WHERE b.name LIKE 'Large hall%'`,
      );
      await db.query(`DELETE FROM ${schema}.equipment_events`);
      await db.query('COMMIT');
    });

    it('stops the query a chunk ahead of a download that is not read, and cancels it when it stops', async () => {
      const cancelled = await streams('cancelled');
      const pulls = holdPulls(2);
      const csv = download(url(), cookie);
      await csv.first;
      // PostgreSQL waits to write what nobody reads: the report piles up nowhere.
      await eventually(async () =>
        expect(await reportBackends()).toEqual([expect.objectContaining({ state: 'active', writing: true })]),
      );

      // It sees the cancel once its write is through: inventory reads on until it stops.
      csv.drop();
      await eventually(async () => expect(await streams('cancelled')).toBe(cancelled + 1));
      expect(await reportBackends()).toEqual([]);
      pulls.open();
    });

    it('cuts the download when the query fails part-way, rather than end a short file', async () => {
      const failed = await streams('failed');
      const pulls = holdPulls(2);
      const csv = download(url(), cookie);
      await csv.first;
      const [backend] = await eventually(async () => {
        const rows = await reportBackends();
        expect(rows).toEqual([expect.objectContaining({ writing: true })]);
        return rows;
      });

      await db.query('SELECT pg_terminate_backend($1)', [backend.pid]);
      pulls.open();
      const { status, text, complete } = await csv.end;
      expect({ status, complete }).toEqual({ status: 200, complete: false });
      expect(text.split('\r\n').length).toBeLessThan(DEVICES + MORE_DEVICES + 2);
      await eventually(async () => expect(await streams('failed')).toBe(failed + 1));
    });
  });

  it('is for signed-in users only', async () => {
    const res = await fetch(url());
    expect(res.status).toBe(401);
  });
});
