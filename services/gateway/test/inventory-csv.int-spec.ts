import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  type AuditPage,
  type Building,
  ErrorCode,
  type ImportChange,
  type ImportAnswer,
  importFileMessages,
  inventoryCsvColumns,
  MAX_IMPORT_BYTES,
  MAX_IMPORT_ROWS,
  MAX_UPLOAD_BYTES,
  type MonitoringCheckResult,
  type Room,
  roomTypes,
} from '@cm/contracts';
import { eventually } from '@cm/platform/testing';
import { parse } from 'csv-parse/sync';
import { IMPORT_IDLE_TIMERS } from '../src/http/idle-timers';
import { fetch, holdIdleTimers, openRequest, startAuthAndGateway } from './support';

const header = inventoryCsvColumns.join(',');

/** A CSV line from the columns it names; the others are empty. */
const line = (cells: Partial<Record<(typeof inventoryCsvColumns)[number], string>>) =>
  inventoryCsvColumns
    .map((c) => {
      const v = cells[c] ?? '';
      return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
    })
    .join(',');

const campus = [
  header,
  line({ building_name: 'Science Hall', building_description: 'North campus' }),
  line({
    building_name: 'Science Hall',
    room_name: 'S101',
    room_type: 'Classroom',
    room_floor: '1',
    room_capacity: '30',
    equipment_name: 'Projector',
    equipment_serial_number: 'PJ-1',
    equipment_ip_address: '127.0.0.10',
  }),
  line({
    building_name: 'Science Hall',
    room_name: 'S101',
    equipment_name: 'Speakers, ceiling',
    equipment_notes: 'Left "and" right',
  }),
  line({ building_name: 'Science Hall', room_name: 'S102', room_type: 'computer lab', room_floor: 'LL' }),
  line({ building_name: 'Library' }),
].join('\r\n');

describe('the inventory CSV: export and import', () => {
  let sut: Awaited<ReturnType<typeof startAuthAndGateway>>;
  let cookie: string;

  beforeAll(async () => {
    sut = await startAuthAndGateway(
      {},
      { everyService: true, inventoryEnv: { ALERTS_SECRET_KEY: randomBytes(32).toString('base64') } },
    );
    cookie = await sut.adminCookie();
  });
  afterAll(() => sut?.close());

  const upload = (file: string | Buffer, query = '', as = cookie) => {
    const form = new FormData();
    form.append('file', new Blob([file], { type: 'text/csv' }), 'campus.csv');
    return fetch(`${sut.base}/api/inventory/import${query}`, {
      method: 'POST',
      headers: { cookie: as },
      body: form,
    });
  };
  const importFile = async (file: string | Buffer, dryRun: boolean) => {
    const res = await upload(file, dryRun ? '?dryRun=true' : '');
    const body = (await res.json()) as ImportAnswer & { code?: string; message?: string };
    return { status: res.status, body };
  };
  const get = async <T>(path: string) => {
    const res = await fetch(`${sut.base}${path}`, { headers: { cookie } });
    expect(res.status).toBe(200);
    return (await res.json()) as T;
  };
  const exported = async () => {
    const res = await fetch(`${sut.base}/api/inventory/export.csv`, { headers: { cookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    expect(res.headers.get('content-disposition')).toMatch(
      /attachment; filename="inventory-\d{4}-\d{2}-\d{2}\.csv"/,
    );
    return res.text();
  };
  /** The audit log's import entries, newest first. */
  const importEntries = async () => (await get<AuditPage>('/api/audit?entityType=import')).items;
  const buildingNamed = async (name: string) =>
    (await get<Building[]>('/api/buildings')).find((b) => b.name === name);

  it('reads the example of docs/csv-format.md without an error', async () => {
    const example = readFileSync(path.resolve(__dirname, '../../../docs/examples/inventory-example.csv'));
    const { status, body } = await importFile(example, true);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      rows: 5,
      errors: [],
      buildings: { create: 2 },
      rooms: { create: 3 },
      equipment: { create: 3 },
    });
  });

  it('previews a file, then applies exactly the preview, and a second import changes nothing', async () => {
    const preview = await importFile(campus, true);
    expect(preview.status).toBe(200);
    const counts = {
      rows: 5,
      buildings: { create: 2, update: 0, unchanged: 0 },
      rooms: { create: 2, update: 0, unchanged: 0 },
      equipment: { create: 2, update: 0, unchanged: 0 },
      errors: [],
      errorCount: 0,
    };
    expect(preview.body).toEqual({ dryRun: true, applied: false, ...counts });
    expect(await buildingNamed('Science Hall')).toBeUndefined();

    const applied = await importFile(campus, false);
    expect(applied.status).toBe(200);
    expect(applied.body).toEqual({ dryRun: false, applied: true, ...counts });

    const hall = (await buildingNamed('Science Hall'))!;
    expect(hall.description).toBe('North campus');
    const rooms = await get<Room[]>(`/api/buildings/${hall.id}/rooms`);
    expect(rooms.map((r) => [r.name, r.type, r.floor, r.capacity, r.isAdaAccessible])).toEqual([
      ['S101', 'Classroom', '1', 30, 1],
      ['S102', 'Computer Lab', 'LL', 0, 1],
    ]);
    const equipment = await get<{ name: string; notes: string | null; status: string }[]>(
      `/api/rooms/${rooms[0].id}/equipment`,
    );
    expect(equipment.map((e) => [e.name, e.notes, e.status])).toEqual([
      ['Projector', null, 'active'],
      ['Speakers, ceiling', 'Left "and" right', 'active'],
    ]);

    const again = await importFile(campus, false);
    expect(again.body).toMatchObject({
      applied: true,
      buildings: { create: 0, update: 0, unchanged: 2 },
      rooms: { create: 0, update: 0, unchanged: 2 },
      equipment: { create: 0, update: 0, unchanged: 2 },
    });

    // One audit entry per import: dry run or applied, the file, the counts, what it created.
    const [second, first, dry] = await importEntries();
    expect(dry.after).toEqual({
      fileName: 'campus.csv',
      dryRun: true,
      applied: false,
      ...counts,
      errors: undefined,
      changes: [],
      changesNotListed: 0,
    });
    expect(dry.actorName).toBe('chief');
    expect(first.after).toMatchObject({
      fileName: 'campus.csv',
      dryRun: false,
      applied: true,
      changesNotListed: 0,
    });
    const created = (first.after as { changes: ImportChange[] }).changes;
    expect(created).toHaveLength(6);
    expect(created).toContainEqual({
      entityType: 'building',
      action: 'create',
      id: hall.id,
      before: null,
      after: expect.objectContaining({ name: 'Science Hall', description: 'North campus' }),
    });
    expect(created).toContainEqual(
      expect.objectContaining({
        entityType: 'equipment',
        action: 'create',
        after: expect.objectContaining({ name: 'Projector', serialNumber: 'PJ-1', ipAddress: '127.0.0.10' }),
      }),
    );
    expect(second.after).toMatchObject({ applied: true, changes: [], changesNotListed: 0 });
  });

  it("carries each equipment's probe type and port, never its credentials", async () => {
    const file = [
      header,
      line({
        building_name: 'Probe Hall',
        room_name: 'P1',
        room_type: 'Classroom',
        room_floor: '1',
        equipment_name: 'Ceiling projector',
        equipment_probe_type: 'PJLink',
        equipment_probe_port: '4353',
      }),
    ].join('\r\n');
    expect((await importFile(file, false)).body).toMatchObject({ applied: true, errors: [] });
    const hall = (await buildingNamed('Probe Hall'))!;
    const [room] = await get<Room[]>(`/api/buildings/${hall.id}/rooms`);
    const listed = () => get<{ id: string; probe: unknown }[]>(`/api/rooms/${room.id}/equipment`);
    const [device] = await listed();
    expect(device.probe).toEqual({ type: 'pjlink', port: 4353, secretsSet: [] });
    const put = await fetch(`${sut.base}/api/equipment/${device.id}`, {
      method: 'PUT',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Ceiling projector',
        probe: { type: 'pjlink', port: 4353, secrets: { password: 'csv-never-sees-me' } },
      }),
    });
    expect(put.status).toBe(200);

    const text = await exported();
    expect(text).not.toContain('csv-never-sees-me');
    const records = parse(text, { columns: true }) as Record<string, string>[];
    expect(records.find((r) => r.equipment_name === 'Ceiling projector')).toMatchObject({
      equipment_probe_type: 'pjlink',
      equipment_probe_port: '4353',
    });
    // The same type again keeps the probe's password; another type starts without it.
    expect((await importFile(text, false)).body).toMatchObject({ applied: true, errors: [] });
    const [kept] = await listed();
    expect(kept.probe).toEqual({ type: 'pjlink', port: 4353, secretsSet: ['password'] });
    await importFile(file.replace('PJLink,4353', 'tcp,'), false);
    expect((await listed())[0].probe).toEqual({
      type: 'tcp',
      secretsSet: [],
    });
  });

  it('exports every building, room and equipment, and its own export imports as unchanged', async () => {
    const text = await exported();
    const records = parse(text, { columns: true }) as Record<string, string>[];
    expect(Object.keys(records[0])).toEqual([...inventoryCsvColumns]);
    const science = records.filter((r) => r.building_name === 'Science Hall');
    expect(science.map((r) => [r.room_name, r.equipment_name])).toEqual([
      ['S101', 'Projector'],
      ['S101', 'Speakers, ceiling'],
      ['S102', ''],
    ]);
    expect(records.find((r) => r.building_name === 'Library')).toMatchObject({
      room_name: '',
      equipment_name: '',
    });
    expect(science[0]).toMatchObject({
      room_capacity: '30',
      room_ada_accessible: '1',
      equipment_ip_address: '127.0.0.10',
      equipment_status: 'active',
    });

    const reimport = await importFile(text, true);
    expect(reimport.body.errors).toEqual([]);
    expect(reimport.body).toMatchObject({
      buildings: { create: 0, update: 0 },
      rooms: { create: 0, update: 0 },
      equipment: { create: 0, update: 0 },
    });
  });

  it('updates what the file changes, matching equipment by serial number even in another room', async () => {
    const file = [
      header,
      line({
        building_name: 'Science Hall',
        room_name: 'S102',
        equipment_name: 'Projector (moved)',
        equipment_serial_number: 'PJ-1',
        equipment_ip_address: '127.0.0.11',
      }),
    ].join('\n');
    const { body } = await importFile(file, false);
    expect(body).toMatchObject({
      applied: true,
      buildings: { unchanged: 1 },
      rooms: { unchanged: 1 },
      equipment: { create: 0, update: 1 },
    });
    const hall = (await buildingNamed('Science Hall'))!;
    const [, s102] = await get<Room[]>(`/api/buildings/${hall.id}/rooms`);
    const moved = await get<{ id: string; name: string; ipAddress: string }[]>(
      `/api/rooms/${s102.id}/equipment`,
    );
    expect(moved).toMatchObject([{ name: 'Projector (moved)', ipAddress: '127.0.0.11' }]);

    // The audit entry names what changed, before and after.
    const [entry] = await importEntries();
    expect((entry.after as { changes: ImportChange[] }).changes).toEqual([
      {
        entityType: 'equipment',
        action: 'update',
        id: moved[0].id,
        before: { roomId: expect.any(String), name: 'Projector', ipAddress: '127.0.0.10' },
        after: { roomId: s102.id, name: 'Projector (moved)', ipAddress: '127.0.0.11' },
      },
    ]);
  });

  it('monitors the addresses an import adds at the next sweep', async () => {
    const devices = Array.from({ length: 20 }, (_, i) =>
      line({
        building_name: 'Annex',
        room_name: 'A1',
        room_type: 'Office',
        room_floor: '1',
        equipment_name: `Panel ${i}`,
        equipment_ip_address: `127.0.1.${i + 1}`,
      }),
    );
    expect((await importFile([header, ...devices].join('\n'), false)).body.applied).toBe(true);
    // 20 imported, and the Projector readdressed above.
    await eventually(async () => {
      const res = await fetch(`${sut.base}/api/monitoring/check`, { method: 'POST', headers: { cookie } });
      expect(((await res.json()) as MonitoringCheckResult).targets).toBe(21);
    });
  });

  it('lists every error with its line, column and what to do, and applies nothing from such a file', async () => {
    const file = [
      header,
      line({ building_name: 'Arts Centre', room_name: 'A1', room_type: 'Lab', room_floor: '1' }),
      line({
        building_name: 'Arts Centre',
        room_name: 'A2',
        room_type: 'Office',
        room_floor: '1',
        room_capacity: 'twenty',
      }),
      line({
        building_name: 'Arts Centre',
        room_name: 'A3',
        room_type: 'Office',
        room_floor: '2',
        equipment_name: 'Camera',
        equipment_ip_address: '10.0.0.300',
      }),
      line({ building_name: 'Arts Centre', room_name: 'A4', room_floor: '2' }),
      line({ building_name: 'Arts Centre', room_name: 'A5', room_type: 'Office', room_floor: '2' }),
    ].join('\n');
    const preview = await importFile(file, true);
    expect(preview.status).toBe(200);
    const messages = preview.body.errors.map((e) => e.message);
    expect(messages).toEqual([
      `Line 2, column room_type: "Lab" is not a room type. Use one of: ${roomTypes.join(', ')}.`,
      `Line 3, column room_capacity: "twenty" is not a capacity. Give the room's seats as a whole number, 0 or more.`,
      expect.stringMatching(
        /^Line 4, column equipment_ip_address: "10\.0\.0\.300" is not an address the monitor can ping: /,
      ),
      `Line 5, column room_type: Room "A4" of "Arts Centre" is new and needs a type (one of: ${roomTypes.join(', ')}).`,
    ]);
    expect(preview.body.errors[0]).toMatchObject({ line: 2, column: 'room_type' });
    expect(preview.body.errorCount).toBe(4);

    const duplicate = [
      header,
      ...[1, 2].map(() =>
        line({
          building_name: 'Arts Centre',
          room_name: 'A5',
          room_type: 'Office',
          room_floor: '2',
          equipment_name: 'Camera',
        }),
      ),
    ].join('\n');
    expect((await importFile(duplicate, true)).body.errors.map((e) => e.message)).toEqual([
      'Line 3, column equipment_name: The same equipment ("Camera" in room "A5" of "Arts Centre") as on line 2. Give each equipment one line: remove one of them, or tell them apart by serial number.',
    ]);

    // Found by the plan alone (each line is fine by itself): still nothing is applied.
    const twice = await importFile(duplicate, false);
    expect(twice.status).toBe(422);
    expect(await buildingNamed('Arts Centre')).toBeUndefined();

    // A5 and its building are fine by themselves, but a file with an error applies nothing.
    const refused = await importFile(file, false);
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe(ErrorCode.IMPORT_HAS_ERRORS);
    expect(refused.body.message).toMatch(
      /^Nothing was imported: the file has 4 errors\. Correct them and import the file again\. Line 2, column room_type:/,
    );
    expect(await buildingNamed('Arts Centre')).toBeUndefined();
  });

  it.each([
    ['not UTF-8', Buffer.from(`${header}\nCaf\u00e9 Hall`, 'latin1'), 'The file is not UTF-8 text.'],
    ['without its header', 'Science Hall,S101\n', 'The first line must be the header naming the columns'],
    [
      'with an unknown column',
      `${header},colour\nLibrary`,
      'Unknown column "colour". Remove it or rename to one of:',
    ],
    ['with a cell in quotes left open', `${header}\n"Science Hall,S101`, 'is not valid CSV'],
    ['empty', '', 'The file is empty.'],
  ])('refuses a file %s with a 400 that says what to do', async (_, file, message) => {
    const res = await upload(file, '?dryRun=true');
    expect(res.status).toBe(400);
    const body = (await res.json()) as { code: string; message: string };
    expect(body.code).toBe(ErrorCode.IMPORT_INVALID_FILE);
    expect(body.message).toContain(message);
  });

  it('refuses more rows than an import takes, and a file over the upload limit, with a 413', async () => {
    const rows = `${header}\n${'Library\n'.repeat(MAX_IMPORT_ROWS + 1)}`;
    const many = await upload(rows, '?dryRun=true');
    expect(many.status).toBe(413);
    expect(((await many.json()) as { message: string }).message).toContain('more than 50,000 rows');

    const big = await upload(Buffer.alloc(MAX_UPLOAD_BYTES + 1, 'a'), '?dryRun=true');
    expect(big.status).toBe(413);
    // Room for the load: checking the 50,001 lines alone takes this machine 20 s when it is quiet.
  });

  it('refuses a file over the import limit by its size, before reading a line, sent with or without its length', async () => {
    // 60,000 lines of about 500 bytes: within the upload limit of pictures, over the import's.
    const tooMany = `Library,${'x'.repeat(480)}\n`;
    const file = `${header}\n${tooMany.repeat(60_000)}`;
    expect(Buffer.byteLength(file)).toBeGreaterThan(MAX_IMPORT_BYTES);
    expect(Buffer.byteLength(file)).toBeLessThan(MAX_UPLOAD_BYTES);
    const sized = await upload(file, '?dryRun=true');
    expect(sized.status).toBe(413);
    const refusal = importFileMessages.tooLarge(MAX_IMPORT_BYTES);
    expect(refusal).toContain('larger than 26,214,400 bytes (25 MB)');
    expect(((await sized.json()) as { message: string }).message).toBe(refusal);

    // Chunked, with no Content-Length to go by: the bytes are counted as they come.
    const boundary = 'sizeboundary';
    const streamed = openRequest(`${sut.base}/api/inventory/import?dryRun=true`, 'POST', {
      cookie,
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'transfer-encoding': 'chunked',
    });
    await streamed.send(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="campus.csv"\r\n` +
          `Content-Type: text/csv\r\n\r\n${header}\r\n`,
      ),
    );
    const chunk = Buffer.from(tooMany.repeat(2000));
    for (let sent = 0; sent <= MAX_IMPORT_BYTES + chunk.length; sent += chunk.length)
      await streamed.send(chunk);
    streamed.end(Buffer.from(`\r\n--${boundary}--\r\n`));
    const answer = await streamed.answer;
    expect(answer.status).toBe(413);
    expect(answer.body.message).toBe(refusal);
  });

  it('is for administrators: a user is refused', async () => {
    const created = await fetch(`${sut.base}/api/users`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'clerk', password: 'clerk password one', role: 'user', isActive: 1 }),
    });
    expect(created.status).toBe(201);
    const user = await sut.signIn('clerk', 'clerk password one');
    expect((await upload(campus, '?dryRun=true', user.cookie)).status).toBe(403);
    expect((await upload(campus, '?dryRun=true', '')).status).toBe(401);
  });

  it('neutralises cells a spreadsheet would run as formulas, in the export and the uptime report, and reads them back', async () => {
    const file = [
      header,
      line({
        building_name: '=HYPERLINK("http://evil.example","x")',
        room_name: '+1 Room',
        room_type: 'Office',
        room_floor: '-1',
        equipment_name: '@SUM(A1)',
        equipment_notes: '\tindented',
      }),
    ].join('\n');
    expect((await importFile(file, false)).body.applied).toBe(true);

    const text = await exported();
    const cells = (parse(text, { columns: true }) as Record<string, string>[]).find((r) =>
      r.building_name.includes('HYPERLINK'),
    )!;
    expect(cells).toMatchObject({
      building_name: `'=HYPERLINK("http://evil.example","x")`,
      room_name: "'+1 Room",
      room_floor: "'-1",
      equipment_name: "'@SUM(A1)",
    });
    const report = await (await fetch(`${sut.base}/api/reports/uptime.csv`, { headers: { cookie } })).text();
    expect(report).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")",'+1 Room,'@SUM(A1)`);

    // Imported again, the apostrophes go: the names stay as typed.
    expect((await importFile(text, true)).body).toMatchObject({
      errors: [],
      buildings: { create: 0, update: 0 },
      rooms: { create: 0, update: 0 },
      equipment: { create: 0, update: 0 },
    });
  });

  it('previews and applies 10,000 rows, the same counts both times', async () => {
    const rows = Array.from({ length: 10_000 }, (_, i) =>
      line({
        building_name: `Tower ${i % 10}`,
        room_name: `R${Math.floor(i / 10) % 100}`,
        room_type: 'Classroom',
        room_floor: String(i % 5),
        equipment_name: `Display ${i}`,
        equipment_serial_number: `SN-${i}`,
      }),
    );
    const file = [header, ...rows].join('\n');
    const preview = await importFile(file, true);
    expect(preview.body).toMatchObject({
      rows: 10_000,
      errorCount: 0,
      buildings: { create: 10 },
      rooms: { create: 1000 },
      equipment: { create: 10_000 },
    });
    const applied = await importFile(file, false);
    const { dryRun: _d, applied: _a, ...planned } = preview.body;
    expect(applied.body).toEqual({ ...planned, dryRun: false, applied: true });
    const towers = (await get<(Building & { roomCount: number })[]>('/api/buildings')).filter((b) =>
      b.name.startsWith('Tower '),
    );
    expect(towers.map((t) => t.roomCount)).toEqual(Array(10).fill(100));

    // The export pages through all of them (500 lines a page), each once, in order.
    const lines = (parse(await exported(), { columns: true }) as Record<string, string>[]).filter((r) =>
      r.building_name.startsWith('Tower '),
    );
    expect(lines).toHaveLength(10_000);
    expect(new Set(lines.map((r) => r.equipment_serial_number)).size).toBe(10_000);
    const order = lines.map((r) => `${r.building_name}/${r.room_name}`);
    expect(order).toEqual([...order].sort((a, b) => a.localeCompare(b, 'en', { numeric: false })));
    // Room for the load: 25 s when the machine is quiet. Its speed is no part of what this shows.
  });
});

describe('an import whose client stops sending', () => {
  let sut: Awaited<ReturnType<typeof startAuthAndGateway>>;

  beforeAll(async () => {
    sut = await startAuthAndGateway({ UPLOAD_IDLE_TIMEOUT_MS: '2000' }, { inventory: true });
  });
  afterAll(() => sut?.close());

  it('is answered 408 after the idle time, and the next import is read', async () => {
    // The idle time runs out when the test says so: a loaded machine may leave even a client that
    // sent everything unread for longer than a short one.
    const timers = holdIdleTimers(sut.gateway, IMPORT_IDLE_TIMERS);
    try {
      const cookie = await sut.adminCookie();
      const boundary = 'importboundary';
      const stalled = openRequest(`${sut.base}/api/inventory/import?dryRun=true`, 'POST', {
        cookie,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      });
      await stalled.send(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="campus.csv"\r\n` +
            `Content-Type: text/csv\r\n\r\n${header}\r\nLibrary\r\n`,
        ),
      );
      await eventually(() => expect(timers.runOut()).toBe(1));
      const answer = await stalled.answer;
      expect(answer.status).toBe(408);
      expect(answer.body.message).toBe(
        'Nothing of the file arrived for 2 s, so the import stopped. Try again.',
      );
      stalled.drop();

      const form = new FormData();
      form.append('file', new Blob([`${header}\nLibrary`], { type: 'text/csv' }), 'campus.csv');
      const next = await fetch(`${sut.base}/api/inventory/import?dryRun=true`, {
        method: 'POST',
        headers: { cookie },
        body: form,
      });
      expect(next.status).toBe(200);
      expect(timers.start).toHaveBeenCalledWith(2000, expect.any(Function));
    } finally {
      timers.restore();
    }
  });
});
