// The two-process floor of bench/api: the system's shape with nothing but node:http, nats.js and
// pg. A front process (the gateway's part: cookie, session and user, each kept as the gateway
// keeps them) asks a second process over NATS request/reply to run the inventory query, as the
// gateway asks inventory. No Nest, Express, OpenTelemetry or validation: the distance from the
// baseline to this floor is what splitting the work across processes costs on this machine;
// the distance from this floor to the system is what the frameworks and the product's checks
// cost.
//
// `node floor-server.mjs` starts the front, which starts the query process itself.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { inventoryRoutes, matchRoute } from './routes.mjs';
import { sessionId } from './session-cookie.mjs';

const require = createRequire(import.meta.url);
const { Pool } = require('pg');
const { connect, JSONCodec } = require('nats');

const { DATABASE_URL, CM_NAMESPACE, SESSION_SECRET, NATS_URL, FLOOR_ROLE } = process.env;
const json = JSONCodec();
const subject = `${CM_NAMESPACE}.bench.floor.query`;
const inv = `"${CM_NAMESPACE}_inventory"`;
/** As the gateway: a session row is trusted for 5 s, a user until a notice says otherwise. */
const SESSION_CACHE_MS = 5000;

async function queryProcess() {
  const pool = new Pool({ connectionString: DATABASE_URL, max: 10 });
  const routes = inventoryRoutes(inv);
  const nc = await connect({ servers: NATS_URL, name: 'bench-floor-query' });
  nc.subscribe(subject, {
    queue: 'floor',
    callback: async (_error, msg) => {
      const { index, id } = json.decode(msg.data);
      try {
        const [sql, params, shape] = routes[index][1](id);
        const body = shape((await pool.query(sql, params)).rows);
        msg.respond(json.encode(body === undefined ? { status: 404 } : { status: 200, body }));
      } catch (error) {
        msg.respond(json.encode({ status: 500, body: { message: String(error) } }));
      }
    },
  });
  process.stdout.write('ready\n');
  process.on('SIGTERM', () =>
    nc
      .drain()
      .then(() => pool.end())
      .then(() => process.exit(0)),
  );
}

async function frontProcess() {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url)], {
    env: { ...process.env, FLOOR_ROLE: 'query' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`The floor's query process exited with ${code}`)));
    child.stdout.once('data', resolve);
  });
  const pool = new Pool({ connectionString: DATABASE_URL, max: 10 });
  const nc = await connect({ servers: NATS_URL, name: 'bench-floor-front' });
  const routes = inventoryRoutes(inv);
  const sessions = new Map();
  const users = new Map();

  const sessionUser = async (sid) => {
    let session = sessions.get(sid);
    if (!session || session.until < Date.now()) {
      const row = (
        await pool.query(
          `SELECT sess FROM "${CM_NAMESPACE}_gateway".sessions WHERE sid = $1 AND expire >= now()`,
          [sid],
        )
      ).rows[0];
      if (!row) return null;
      session = { userId: row.sess.userId, until: Date.now() + SESSION_CACHE_MS };
      sessions.set(sid, session);
    }
    let user = users.get(session.userId);
    if (!user) {
      user = (
        await pool.query(
          `SELECT id, username, role, is_active FROM "${CM_NAMESPACE}_auth".users WHERE id = $1`,
          [session.userId],
        )
      ).rows[0];
      if (user) users.set(session.userId, user);
    }
    return user?.is_active === 1 ? user : null;
  };

  const send = (res, status, body) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
    res.end(JSON.stringify(body));
  };

  const server = createServer(async (req, res) => {
    try {
      const match = matchRoute(routes, req.url);
      if (!match) return send(res, 404, { code: 'COMMON.NOT_FOUND' });
      const sid = sessionId(req.headers.cookie, SESSION_SECRET);
      if (!sid || !(await sessionUser(sid))) return send(res, 401, { code: 'AUTH.UNAUTHENTICATED' });
      const reply = json.decode((await nc.request(subject, json.encode(match), { timeout: 5000 })).data);
      send(res, reply.status, reply.body ?? { code: 'INVENTORY.NOT_FOUND' });
    } catch (error) {
      send(res, 500, { code: 'COMMON.INTERNAL', message: String(error) });
    }
  });
  server.listen(0, '127.0.0.1', () => {
    process.stdout.write(`${JSON.stringify({ port: server.address().port, queryPid: child.pid })}\n`);
  });
  process.on('SIGTERM', () => {
    child.kill('SIGTERM');
    server.close(() =>
      nc
        .drain()
        .then(() => pool.end())
        .then(() => process.exit(0)),
    );
  });
}

await (FLOOR_ROLE === 'query' ? queryProcess() : frontProcess());
