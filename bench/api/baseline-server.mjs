// The single-process baseline of bench/api: a plain Node HTTP server that answers the same four
// calls as the gateway with the same SQL straight against PostgreSQL, per request: the session
// (read, and its expiry renewed as rolling sessions do), the signed-in user, then the inventory
// query. No Nest, no NATS: what is left over in the system's figures is what those cost.
import { Buffer } from 'node:buffer';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { Pool } = require('pg');

const { DATABASE_URL, CM_NAMESPACE, SESSION_SECRET } = process.env;
const pool = new Pool({ connectionString: DATABASE_URL, max: 10 });
const gateway = `"${CM_NAMESPACE}_gateway"`;
const auth = `"${CM_NAMESPACE}_auth"`;
const inv = `"${CM_NAMESPACE}_inventory"`;
const SESSION_MAX_AGE_MS = 24 * 3600 * 1000;

const buildingColumns = `b.id, b.name, b.description, b.image_url AS "imageUrl"`;
const roomColumns = `r.id, r.building_id AS "buildingId", r.name, r.type, r.floor, r.capacity,
  r.room_size AS "roomSize", r.is_ada_accessible::int AS "isAdaAccessible", r.image_url AS "imageUrl",
  r.wiring_diagram_url AS "wiringDiagramUrl", r.seating_layout_url AS "seatingLayoutUrl"`;

const routes = [
  [
    /^\/api\/buildings$/,
    () => [
      `SELECT ${buildingColumns},
              (SELECT count(*)::int FROM ${inv}.rooms r WHERE r.building_id = b.id) AS "roomCount"
         FROM ${inv}.buildings b ORDER BY lower(b.name), b.id`,
      [],
      (rows) => rows,
    ],
  ],
  [
    /^\/api\/buildings\/([0-9a-f-]{36})$/,
    (id) => [`SELECT ${buildingColumns} FROM ${inv}.buildings b WHERE b.id = $1`, [id], (rows) => rows[0]],
  ],
  [
    /^\/api\/buildings\/([0-9a-f-]{36})\/rooms$/,
    (id) => [
      `SELECT ${roomColumns},
              (SELECT count(*)::int FROM ${inv}.equipment e WHERE e.room_id = r.id) AS "equipmentCount"
         FROM ${inv}.buildings b LEFT JOIN ${inv}.rooms r ON r.building_id = b.id
        WHERE b.id = $1 ORDER BY lower(r.name), r.id`,
      [id],
      (rows) => (rows.length ? rows.filter((r) => r.id !== null) : undefined),
    ],
  ],
  [
    /^\/api\/rooms\/([0-9a-f-]{36})$/,
    (id) => [`SELECT ${roomColumns} FROM ${inv}.rooms r WHERE r.id = $1`, [id], (rows) => rows[0]],
  ],
];

/** express-session's cookie: `s:<sid>.<HMAC-SHA256 in base64 without padding>`, URL-encoded. */
function sessionId(cookieHeader = '') {
  const raw = cookieHeader
    .split(';')
    .map((c) => c.trim())
    .find((c) => c.startsWith('cm.sid='));
  if (!raw) return null;
  const value = decodeURIComponent(raw.slice('cm.sid='.length));
  if (!value.startsWith('s:')) return null;
  const signed = value.slice(2);
  const sid = signed.slice(0, signed.lastIndexOf('.'));
  const expected = Buffer.from(
    `${sid}.${createHmac('sha256', SESSION_SECRET).update(sid).digest('base64').replace(/=+$/, '')}`,
  );
  const given = Buffer.from(signed);
  return expected.length === given.length && timingSafeEqual(expected, given) ? sid : null;
}

const send = (res, status, body) => {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(text);
};

const server = createServer(async (req, res) => {
  try {
    const match = routes.map(([re, make]) => [re.exec(req.url), make]).find(([m]) => m);
    if (!match) return send(res, 404, { code: 'COMMON.NOT_FOUND' });
    const sid = sessionId(req.headers.cookie);
    const session = sid
      ? (await pool.query(`SELECT sess FROM ${gateway}.sessions WHERE sid = $1 AND expire >= now()`, [sid]))
          .rows[0]
      : undefined;
    if (!session) return send(res, 401, { code: 'AUTH.UNAUTHENTICATED' });
    await pool.query(`UPDATE ${gateway}.sessions SET expire = $2 WHERE sid = $1`, [
      sid,
      new Date(Date.now() + SESSION_MAX_AGE_MS),
    ]);
    const user = (
      await pool.query(`SELECT id, username, role, is_active FROM ${auth}.users WHERE id = $1`, [
        session.sess.userId,
      ])
    ).rows[0];
    if (!user || user.is_active !== 1) return send(res, 401, { code: 'AUTH.UNAUTHENTICATED' });
    const [m, make] = match;
    const [sql, params, shape] = make(m[1]);
    const body = shape((await pool.query(sql, params)).rows);
    if (body === undefined) return send(res, 404, { code: 'INVENTORY.NOT_FOUND' });
    send(res, 200, body);
  } catch (error) {
    send(res, 500, { code: 'COMMON.INTERNAL', message: String(error) });
  }
});

server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`);
});
process.on('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))));
