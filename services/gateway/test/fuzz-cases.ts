import { deflateSync, gzipSync, brotliCompressSync } from 'node:zlib';
import { type ApiRouteDef } from '@cm/contracts';

/** mulberry32: a small seeded generator, so a failing run can be replayed from its seed. */
export function seededRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return {
    next,
    int,
    chance: (p: number) => next() < p,
    pick: <T>(items: readonly T[]): T => items[int(items.length)],
    uuid: () => 'xxxxxxxx-xxxx-4xxx-8xxx-xxxxxxxxxxxx'.replace(/x/g, () => int(16).toString(16)),
  };
}
export type Random = ReturnType<typeof seededRandom>;

/** What a case is about: a known finding can be set aside by route and kind (see the pending list). */
export type CaseKind =
  | 'valid'
  | 'field-value'
  | 'field-missing'
  | 'field-extra'
  | 'body-shape'
  | 'malformed-json'
  | 'content-type'
  | 'content-encoding'
  | 'oversized-body'
  | 'path-param'
  | 'path-shape'
  | 'query'
  | 'header'
  | 'multipart';

export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

export interface FuzzCase {
  kind: CaseKind;
  /** What was varied, for the report: the field and value, the header, the path. */
  detail: string;
  request: FuzzRequest;
}

/** Record ids that exist, so that a case can get past "not found" to the body and the SQL. */
export interface Fixtures {
  buildingId: string;
  roomId: string;
  equipmentId: string;
  userId: string;
  /** A presigned upload URL whose object was PUT with no bytes. */
  emptyUploadUrl: string;
}

const nul = 'a\u0000b';
/** Text values that have each broken something somewhere: storage, parsing, display. */
const oddStrings = [
  '',
  ' ',
  nul,
  '\u0000',
  'x\u0001\u0007\u001b[31m\u007f',
  'line\r\nbreak',
  '\ud800',
  'tail\udfff',
  '\ufeffbom',
  '\u202eevil',
  'e\u0301\u0301\u0301\u0301',
  '🔬'.repeat(70),
  '𝕏'.repeat(130),
  'a'.repeat(121),
  'a'.repeat(2049),
  'a'.repeat(70_000),
  "'; DROP TABLE rooms; --",
  '%00',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  '${7*7}',
  '\\u0000',
  'NaN',
  '0',
  '-1',
  '1e309',
  'null',
];
const oddNonStrings: unknown[] = [
  null,
  0,
  -1,
  1.5,
  1e308,
  -0,
  Number.MAX_SAFE_INTEGER + 2,
  true,
  false,
  [],
  ['a'],
  {},
  { $ne: null },
  { toString: 'x' },
];
/** E-mail addresses the users table cannot hold or that are not addresses. */
const oddEmails = [
  `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.example`,
  `${'a'.repeat(250)}@x.io`,
  'a@b',
  'a\u0000@b.io',
  'A@B.IO',
  '@',
];

/** A body each route accepts, to vary one thing at a time. */
export function validBodies(fixtures: Fixtures, random: Random): Record<string, Record<string, unknown>> {
  const suffix = random.int(1e9).toString(36);
  return {
    login: { username: 'nobody-' + suffix, password: 'wrong password' },
    createUser: {
      username: `fuzz-${suffix}`,
      password: 'a fuzzing password',
      email: `fuzz-${suffix}@example.edu`,
      firstName: 'Fu',
      lastName: 'Zz',
      role: 'user',
      isActive: 1,
    },
    updateUser: { username: `fuzz-victim`, email: `victim@example.edu`, firstName: 'Vic', isActive: 1 },
    registerRoomImage: { roomImageURL: 'http://127.0.0.1:1/bucket/uploads/x' },
    createBuilding: { name: 'Fuzz Hall', description: 'Made by the fuzz test', imageUrl: '' },
    updateBuilding: { name: 'Fuzz Hall', description: 'Edited by the fuzz test' },
    createRoom: { name: 'F1', type: 'Classroom', floor: '1', capacity: 10, roomSize: '', isAdaAccessible: 1 },
    updateRoom: { name: 'F1', type: 'Lecture Hall', floor: 'LL', capacity: '12', roomSize: '10 x 10' },
    createEquipment: {
      roomId: fixtures.roomId,
      name: 'Projector',
      model: 'P1',
      serialNumber: 'S1',
      status: 'active',
      notes: '',
    },
    updateEquipment: { roomId: fixtures.roomId, name: 'Projector', status: 'maintenance', notes: 'n' },
  };
}

const uuidLike = (random: Random) => random.uuid();
/** Path parameter values: malformed ids, traversal, encodings, sizes. */
const oddParams = (random: Random) => [
  'abc',
  '0',
  '-1',
  '1e3',
  'null',
  'undefined',
  uuidLike(random).toUpperCase(),
  `${uuidLike(random)}x`,
  uuidLike(random).replace(/-/g, ''),
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  '..',
  '.',
  '%2e%2e',
  '..%2F..%2Fusers',
  'a%2Fb',
  '%00',
  '%',
  '%zz',
  '%ff%fe',
  '%C0%AE',
  encodeURIComponent(nul),
  encodeURIComponent("1' OR '1'='1"),
  encodeURIComponent('🔬'),
  'a'.repeat(5000),
  `${uuidLike(random)};DROP`,
  '__proto__',
  'constructor',
];

const pathShapes: [string, (path: string) => string][] = [
  ['a trailing slash', (p) => `${p}/`],
  ['an extra segment', (p) => `${p}/extra`],
  ['a trailing ..', (p) => `${p}/..`],
  ['encoded dot segments', (p) => `${p}/%2e%2e/%2e%2e`],
  ['an empty segment', (p) => p.replace(/^\/(\w+)\//, '/$1//')],
  ['upper case', (p) => p.toUpperCase()],
  ['an encoded NUL', (p) => `${p}%00`],
  ['an extension', (p) => `${p}.json`],
  ['a matrix parameter', (p) => `${p};jsessionid=1`],
];

const oddQueries = [
  '?a=1&a=2',
  '?id=1&id=2&id[]=3',
  '?__proto__[x]=1',
  '?constructor[prototype][x]=1',
  '?a[b][c][d][e][f][g][h][i][j][k]=1',
  '?%zz=%ff',
  `?q=${'a'.repeat(6000)}`,
  '?' + Array.from({ length: 1500 }, (_, i) => `k${i}=v`).join('&'),
  '?x=%00',
  '?&&&==&',
];

/** Headers the gateway reads itself: the session cookie, the cross-site check, proxies, caching. */
const oddHeaders: [string, string][] = [
  ['cookie', 'cm.sid=garbage'],
  ['cookie', 'cm.sid=s%3Aforged.signature'],
  ['cookie', 'cm.sid=%'],
  ['cookie', `cm.sid=${'a'.repeat(4000)}`],
  ['cookie', 'cm.sid=1; cm.sid=2; cm.sid=3'],
  ['cookie', ';;;=;=='],
  ['origin', 'null'],
  ['origin', 'http://evil.example'],
  ['origin', 'not a url'],
  ['referer', '::::'],
  ['x-forwarded-for', '1.2.3.4, garbage, ::1'],
  ['x-forwarded-proto', 'https, http'],
  ['x-forwarded-host', 'evil.example'],
  ['host', 'evil.example'],
  ['if-none-match', '*'],
  ['if-modified-since', 'not a date'],
  ['range', 'bytes=999999999-'],
  ['accept', 'text/csv;q=abc'],
  ['accept-encoding', 'gzip;q=x, *;q=-1'],
  ['accept-language', 'x'.repeat(3000)],
];

const contentTypes = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'multipart/form-data; boundary=',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'application/json; charset=x-unknown',
  'application/json; charset="utf-8"; charset=big5',
  'application/xml',
  'application/vnd.api+json',
  '*/*',
  ';;;',
  'a'.repeat(2000),
];

type Encoder = (body: Buffer, random: Random) => [string, Buffer];
/** Content-Encoding headers with bodies that do, or do not, match them. */
const encoders: Encoder[] = [
  (b) => ['gzip', gzipSync(b)],
  (b) => ['deflate', deflateSync(b)],
  (b) => ['br', brotliCompressSync(b)],
  (b) => ['identity', b],
  (b) => ['GZIP', gzipSync(b)],
  (b) => ['gzip', b],
  (b) => ['deflate', b],
  (b) => ['br', b],
  (b) => ['gzip', gzipSync(b).subarray(0, Math.max(1, gzipSync(b).length - 5))],
  (b) => ['deflate', deflateSync(b).subarray(0, Math.max(1, deflateSync(b).length >> 1))],
  (b) => ['gzip', Buffer.concat([gzipSync(b), Buffer.from('trailing garbage')])],
  (_b) => ['gzip', Buffer.alloc(0)],
  (b) => ['gzip, gzip', gzipSync(gzipSync(b))],
  (b) => ['gzip, deflate', b],
  (b) => ['compress', b],
  (b) => ['x-unknown', b],
  (b) => ['zstd', b],
  (b) => ['', b],
  (b) => ['*', b],
  (_b, r) => ['gzip', Buffer.from(Array.from({ length: 64 }, () => r.int(256)))],
];

const malformedJson = [
  '',
  '{',
  '{"name":',
  '{"name":"x",}',
  "{'name':'x'}",
  '{"name":"x"}{"name":"y"}',
  'nul',
  'undefined',
  '"\\ud800"',
  '{"name":"\\u0000"}',
  '{"name":"x\\u"}',
  '\u0000',
  '\ufeff{"name":"x"}',
  '['.repeat(20_000) + ']'.repeat(20_000),
  '{"a":'.repeat(5_000) + '1' + '}'.repeat(5_000),
  '{"__proto__":{"admin":true},"name":"x"}',
  '{"name":"x","name":{"nested":1}}',
  JSON.stringify({ name: 'x' }).replace('x', '\u0000'),
];

const multipartBoundary = 'fuzzboundary';
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('png'),
]);

/** Multipart bodies for the upload route: cut short, empty, misnamed, mislabelled, doubled. */
const multipartBodies: [string, (boundary: string) => Buffer][] = [
  ['a small image', (b) => part(b, 'file', 'room.png', png, true)],
  ['an empty file', (b) => part(b, 'file', 'empty.png', Buffer.alloc(0), true)],
  ['cut before the end boundary', (b) => part(b, 'file', 'room.png', png, false)],
  ['cut inside the part headers', (b) => Buffer.from(`--${b}\r\nContent-Disposition: form-da`)],
  ['cut right after the boundary', (b) => Buffer.from(`--${b}`)],
  ['no parts at all', (b) => Buffer.from(`--${b}--\r\n`)],
  ['a field that is not "file"', (b) => part(b, 'photo', 'room.png', png, true)],
  [
    'a text field, no file',
    (b) => Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="file"\r\n\r\nhello\r\n--${b}--\r\n`),
  ],
  [
    'two files',
    (b) => Buffer.concat([part(b, 'file', 'a.png', png, false), part(b, 'file', 'b.png', png, true)]),
  ],
  ['not an image', (b) => part(b, 'file', 'a.png', Buffer.from('<svg onload="alert(1)"/>'), true)],
  ['a NUL in the file name', (b) => part(b, 'file', 'a\u0000.png', png, true)],
  ['a huge file name', (b) => part(b, 'file', 'a'.repeat(20_000) + '.png', png, true)],
  [
    'a huge part header',
    (b) => Buffer.from(`--${b}\r\nX-${'a'.repeat(100_000)}: 1\r\n\r\nx\r\n--${b}--\r\n`),
  ],
  ['another boundary', () => part('other', 'file', 'room.png', png, true)],
  ['garbage', () => Buffer.from('\u0000\u0001 not a multipart body')],
  ['nothing', () => Buffer.alloc(0)],
];

function part(boundary: string, field: string, filename: string, content: Buffer, close: boolean): Buffer {
  return Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\n` +
        'Content-Type: image/png\r\n\r\n',
    ),
    content,
    Buffer.from(close ? `\r\n--${boundary}--\r\n` : '\r\n'),
  ]);
}

/**
 * Every field of every route's body with each value the database cannot store or the contract must
 * refuse: run in full on every run, so that no field is left to chance.
 */
export function fieldCases(name: string, route: ApiRouteDef, fixtures: Fixtures): FuzzCase[] {
  const base = validBodies(fixtures, seededRandom(0))[name];
  if (!base) return [];
  const path = route.path.replace(
    /:([A-Za-z0-9_]+)/g,
    (_, param: string) => realIdFor(route, param, fixtures) ?? '',
  );
  const values = ['a\u0000b', '\ud800', '\udfffx', 'a'.repeat(5000), ...oddEmails.slice(0, 2)];
  if (name === 'registerRoomImage') values.push(fixtures.emptyUploadUrl);
  return Object.keys(base).flatMap((field) =>
    values.map((value) => ({
      kind: 'field-value' as const,
      detail: `${field} = ${JSON.stringify(value).slice(0, 80)}`,
      request: {
        method: route.method,
        path,
        headers: { 'content-type': 'application/json' },
        body: json({ ...base, [field]: value }),
      },
    })),
  );
}

/** A path parameter's real record, so that the case reaches the service and its SQL. */
function realIdFor(route: ApiRouteDef, param: string, fixtures: Fixtures): string | undefined {
  // A delete of a fixture would leave the other cases nothing to reach.
  if (route.method === 'DELETE') return undefined;
  if (param === 'buildingId') return fixtures.buildingId;
  if (param === 'roomId') return fixtures.roomId;
  const owner = route.path.split('/')[2];
  const byOwner: Record<string, string> = {
    buildings: fixtures.buildingId,
    rooms: fixtures.roomId,
    equipment: fixtures.equipmentId,
    users: fixtures.userId,
  };
  return byOwner[owner];
}

const json = (value: unknown) => Buffer.from(JSON.stringify(value));

/**
 * One malformed request to `route`: mostly a valid request with one thing wrong (a field, a
 * header, the path), so that each case gets as far as that one thing allows.
 */
export function generateCase(name: string, route: ApiRouteDef, random: Random, fixtures: Fixtures): FuzzCase {
  const params = [...route.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]);
  const base = validBodies(fixtures, random)[name];
  const isUpload = route.bodyContentType === 'multipart/form-data';
  let kind: CaseKind = 'valid';
  let detail = 'a valid request';
  const headers: Record<string, string> = {};
  let body: Buffer | undefined = base ? json(base) : undefined;
  if (body) headers['content-type'] = 'application/json';

  const values: Record<string, string> = {};
  for (const param of params) values[param] = realIdFor(route, param, fixtures) ?? random.uuid();
  let path = route.path;
  let query = '';

  const choices: (() => void)[] = [
    () => {
      if (params.length === 0) return;
      const param = random.pick(params);
      values[param] = random.pick(oddParams(random));
      kind = 'path-param';
      detail = `:${param} = ${values[param].slice(0, 80)}`;
    },
    () => {
      const [what, reshape] = random.pick(pathShapes);
      path = reshape(path);
      kind = 'path-shape';
      detail = `path with ${what}`;
    },
    () => {
      query = random.pick(oddQueries);
      kind = 'query';
      detail = `query ${query.slice(0, 80)}`;
    },
    () => {
      const [header, value] = random.pick(oddHeaders);
      headers[header] = value;
      kind = 'header';
      detail = `${header}: ${value.slice(0, 80)}`;
    },
    () => {
      headers['content-type'] = random.pick(contentTypes);
      body ??= json({ name: 'x' });
      kind = 'content-type';
      detail = `content-type ${headers['content-type'].slice(0, 80)}`;
    },
    () => {
      const [encoding, encoded] = random.pick(encoders)(body ?? json({ name: 'x' }), random);
      headers['content-type'] ??= 'application/json';
      headers['content-encoding'] = encoding;
      body = encoded;
      kind = 'content-encoding';
      detail = `content-encoding "${encoding}", ${encoded.length} bytes`;
    },
    () => {
      const text = random.pick(malformedJson);
      headers['content-type'] = 'application/json';
      body = Buffer.from(text);
      kind = 'malformed-json';
      detail = `body ${JSON.stringify(text.slice(0, 60))}${text.length > 60 ? '…' : ''}`;
    },
    () => {
      const shape = random.pick<unknown>([[], [base ?? {}], 'text', 0, null, true, { '': 1 }]);
      headers['content-type'] = 'application/json';
      body = json(shape);
      kind = 'body-shape';
      detail = `body ${JSON.stringify(shape).slice(0, 80)}`;
    },
    () => {
      headers['content-type'] = 'application/json';
      // Past the 1 MB limit only now and then: each such case moves a megabyte.
      body = random.chance(0.2)
        ? Buffer.alloc(1024 * 1024 + 16 + random.int(1000), '[')
        : json({ ...base, name: 'n'.repeat(200_000 + random.int(1000)) });
      kind = 'oversized-body';
      detail = `a body of ${body.length} bytes`;
    },
  ];
  if (base) {
    const fields = Object.keys(base);
    const oddValue = () => {
      const field = random.pick(fields);
      const value =
        field === 'email' && random.chance(0.5)
          ? random.pick(oddEmails)
          : random.chance(0.7)
            ? random.pick(oddStrings)
            : random.pick(oddNonStrings);
      body = json({ ...base, [field]: value });
      kind = 'field-value';
      detail = `${field} = ${JSON.stringify(value)?.slice(0, 80)}`;
    };
    // Field values are where the findings were: weigh them up.
    choices.push(
      oddValue,
      oddValue,
      oddValue,
      () => {
        const field = random.pick(fields);
        body = json(Object.fromEntries(Object.entries(base).filter(([k]) => k !== field)));
        kind = 'field-missing';
        detail = `without ${field}`;
      },
      () => {
        const extra = random.pick([
          'id',
          'createdAt',
          'passwordHash',
          'constructor',
          'isAdmin',
          'x'.repeat(500),
        ]);
        body = Buffer.from(
          JSON.stringify(base).replace(/^\{/, `{"${extra}":${JSON.stringify(random.pick(oddStrings))},`),
        );
        kind = 'field-extra';
        detail = `extra field ${extra.slice(0, 40)}`;
      },
    );
  }
  if (isUpload) {
    const upload = () => {
      const [what, make] = random.pick(multipartBodies);
      const boundary = random.chance(0.9) ? multipartBoundary : `${multipartBoundary}${'x'.repeat(100)}`;
      headers['content-type'] = `multipart/form-data; boundary=${boundary}`;
      body = make(boundary);
      kind = 'multipart';
      detail = `multipart: ${what}`;
    };
    choices.push(upload, upload, upload, upload);
  }

  random.pick(choices)();
  for (const param of params) path = path.replace(`:${param}`, values[param]);
  return {
    kind,
    detail,
    request: { method: route.method, path: path + query, headers, body },
  };
}
