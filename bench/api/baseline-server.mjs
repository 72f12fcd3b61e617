// The single-process baseline of bench/api: a plain Node HTTP server that answers the same four
// calls as the gateway with the same SQL straight against PostgreSQL, per request: the session
// (read, and its expiry renewed as rolling sessions do), the signed-in user, then the inventory
// query. No Nest, no NATS: what is left over in the system's figures is what those cost.
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { sessionId } from './session-cookie.mjs';
import { inventoryRoutes, matchRoute } from './routes.mjs';

const require = createRequire(import.meta.url);
const { Pool } = require('pg');

const { DATABASE_URL, CM_NAMESPACE, SESSION_SECRET } = process.env;
const pool = new Pool({ connectionString: DATABASE_URL, max: 10 });
const gateway = `"${CM_NAMESPACE}_gateway"`;
const auth = `"${CM_NAMESPACE}_auth"`;
const inv = `"${CM_NAMESPACE}_inventory"`;
const SESSION_MAX_AGE_MS = 24 * 3600 * 1000;

const routes = inventoryRoutes(inv);

const send = (res, status, body) => {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(text);
};

const server = createServer(async (req, res) => {
  try {
    const match = matchRoute(routes, req.url);
    if (!match) return send(res, 404, { code: 'COMMON.NOT_FOUND' });
    const sid = sessionId(req.headers.cookie, SESSION_SECRET);
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
    const [sql, params, shape] = routes[match.index][1](match.id);
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
