import { uptimeCsvLine } from '@cm/contracts';
import { testDatabaseUrl } from '@cm/platform/testing';
import { Client } from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { CrlfLines } from '../src/status/reports/crlf-lines';
import { type UptimeRow, uptimeOf } from '../src/status/reports/uptime';
import { uptimeCsvCells } from '../src/status/reports/uptime-csv';

type Row = Omit<UptimeRow, 'equipmentId' | 'buildingId' | 'roomId' | 'lastUpdated'> & {
  lastUpdated: string;
};

const columns = `"buildingName" text, "roomName" text, name text, type text, "ipAddress" text, status text,
  "lastUpdated" timestamptz, "upSeconds" float8, "downSeconds" float8`;

const base: Row = {
  buildingName: 'Science Hall',
  roomName: 'S101',
  name: 'Projector',
  type: 'Projector',
  ipAddress: '127.0.0.10',
  status: 'active',
  lastUpdated: '2026-11-20 08:30:00.125+00',
  upSeconds: 2_500_000,
  downSeconds: 3_600.5,
};

/** What people type into names that a CSV or a spreadsheet makes something of. */
const tricky = [
  ...['plain', '', 'with "quotes"', 'a, b', 'line\nbreak', 'lone\rreturn', 'crlf\r\nend', '"', ',', '""'],
  ...['=SUM(A1)', '+1', '-3 dB pad', '@user', '\tindented', '\rreturn', ' =after a space'],
  ...['＝HYPERLINK("http://evil.example","x")', '＋1', '－1', '＠SUM(A1)', '﹦1', '﹢1', '﹣1', '﹫x'],
  ...['−1', '–1', '‐1', '―1', '⁼1', '₊1', '⁻1', '=\u0338SUM(A1)', '≠ not a formula', 'Ｒoom 1', '１０１'],
  ...["'quoted already", 'Bâtiment Élysée', 'Ωμέγα', '教室 101', '📽 Projector', 'ﬁ', '\u00a0nbsp'],
];

describe('the uptime CSV as PostgreSQL writes it (uptime-csv.ts)', () => {
  let db: Client;

  beforeAll(async () => {
    db = new Client({ connectionString: testDatabaseUrl });
    await db.connect();
    await db.query(`CREATE TEMPORARY TABLE x (n serial, ${columns})`);
  });
  afterAll(() => db?.end());

  /** COPY's bytes of the rows' lines, as they come. */
  async function copied(): Promise<Buffer[]> {
    const chunks: Buffer[] = [];
    const copy = db.query(
      copyTo(`COPY (SELECT ${uptimeCsvCells} FROM x ORDER BY n) TO STDOUT WITH (FORMAT csv)`),
    );
    for await (const chunk of copy) chunks.push(chunk as Buffer);
    return chunks;
  }

  /** The rows' lines as COPY writes them (LFs made CRLFs), and as uptimeCsvLine writes them as read by node-postgres. */
  async function bothWays(rows: Row[]) {
    await db.query('TRUNCATE x');
    await db.query(
      `INSERT INTO x SELECT nextval('x_n_seq'), r.* FROM jsonb_to_recordset($1::jsonb) AS r(${columns})`,
      [JSON.stringify(rows)],
    );
    const read = await db.query<Omit<UptimeRow, 'equipmentId' | 'buildingId' | 'roomId'>>(
      `SELECT "buildingName", "roomName", name, type, "ipAddress", status, "lastUpdated", "upSeconds", "downSeconds"
         FROM x ORDER BY n`,
    );
    const chunks = await copied();
    const lines = new CrlfLines();
    return {
      sql: Buffer.concat(chunks.map((chunk) => lines.convert(chunk))),
      chunks,
      typescript: Buffer.from(read.rows.map((row) => uptimeCsvLine(uptimeOf(row))).join('')),
    };
  }

  /** Lines of a CSV (cells may hold line breaks: split where a line ends, outside quotes). */
  const linesOf = (csv: Buffer) =>
    csv.toString('utf8').match(/(?:"(?:[^"]|"")*"|[^"\r\n]|\r(?!\n)|\n)*\r\n/g);

  it('quotes and neutralises cells as csvCell does', async () => {
    const rows = tricky.flatMap((text): Row[] => [
      { ...base, buildingName: text, roomName: text, name: text, type: text, ipAddress: text, status: text },
      { ...base, name: text, type: null, ipAddress: null },
    ]);
    const { sql, typescript } = await bothWays([...rows, { ...base, ipAddress: '' }]);
    expect(linesOf(typescript)).toHaveLength(rows.length + 1);
    expect(linesOf(sql)).toEqual(linesOf(typescript));
    expect(sql.equals(typescript)).toBe(true);
  });

  it('ends lines in CRLF wherever COPY cuts its chunks', async () => {
    const rows = tricky.map((text): Row => ({ ...base, name: `${text}\n"${text}"\r\n` }));
    const { chunks, typescript } = await bothWays(rows);
    const bytes = Buffer.concat(chunks);
    const lines = new CrlfLines();
    const oneByOne = Buffer.concat([...bytes].map((byte) => lines.convert(Buffer.from([byte]))));
    expect(oneByOne.equals(typescript)).toBe(true);
  });

  it('rounds percentages and hours as Math.round and toFixed do, ties and all', async () => {
    const rows: Row[] = [
      { ...base, upSeconds: 0, downSeconds: 0 },
      { ...base, upSeconds: 3600, downSeconds: 0 },
      { ...base, upSeconds: 0, downSeconds: 3600 },
      { ...base, upSeconds: 1e-7, downSeconds: 0 },
      { ...base, upSeconds: 2_591_999.999999, downSeconds: 0.000001 },
    ];
    // Every tenth of a percent, each half-way tie among them.
    for (let k = 0; k <= 2000; k++) rows.push({ ...base, upSeconds: k, downSeconds: 2000 - k });
    // Every hundredth of an hour in the 720-hour window, and each half-way between two.
    for (let r = 0; r <= 72_000; r++) rows.push({ ...base, upSeconds: r * 36, downSeconds: r * 36 + 18 });
    // And seconds as the spans sum them, to the microsecond (the same ones every run).
    let seed = 1;
    const random = () => (seed = (seed * 16_807) % 2_147_483_647) / 2_147_483_647;
    for (let i = 0; i < 5000; i++) {
      const up = Math.round(random() * 2.592e12) / 1e6;
      rows.push({ ...base, upSeconds: up, downSeconds: Math.round(random() * (2.592e12 - up * 1e6)) / 1e6 });
    }
    const { sql, typescript } = await bothWays(rows);
    expect(linesOf(typescript)).toHaveLength(rows.length);
    expect(linesOf(sql)).toEqual(linesOf(typescript));
  });

  it('writes times as toISOString does, to the millisecond', async () => {
    const times = [
      '2026-11-20 08:30:00+00',
      '2026-11-20 08:30:00.123456+00',
      '2026-11-20 08:30:00.999999+00',
      '2026-11-20 08:30:00.029+00',
      '2026-11-20 23:59:59.9995+00',
      '2026-03-29 02:30:00.000001+02',
      '1999-12-31 23:59:59.5-05:30',
    ];
    const { sql, typescript } = await bothWays(times.map((lastUpdated) => ({ ...base, lastUpdated })));
    expect(linesOf(sql)).toEqual(linesOf(typescript));
  });
});
