// Starts and stops the whole system on one machine: an S3-API server on loopback (unless
// S3_ENDPOINT points elsewhere), a NATS server of its own when asked (`npm start`), and the five
// services as child processes. Used by
// `npm start` and by the end-to-end tests, so that both run the system the same way.
const { spawn } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const readline = require('node:readline');
const { applyLocalKeys } = require('./local-keys.cjs');
const { startLocalNats } = require('./local-nats.cjs');
const { claimPort, claimPortAhead, portAhead, releasePort, tryListen } = require('./port-claims.cjs');
const { restartDelay, restartMessage } = require('./supervisor.cjs');

const ROOT = path.resolve(__dirname, '..');
const SERVICES = ['auth', 'inventory', 'media', 'monitor', 'gateway'];
/** s3rver's fixed credentials: it is a local development store, never a real one. */
const LOCAL_S3_KEY = 'S3RVER';
/** Log lines of each service kept to say why it stopped. */
const LAST_LINES = 10;

/**
 * The port each process listens on besides the gateway's public one: its probes and /metrics
 * (HTTP_PORT), or the gateway's metrics (METRICS_PORT). `usual` is each one's default.
 */
const SIDE_PORTS = {
  gateway: { variable: 'METRICS_PORT', hostVariable: 'METRICS_HOST', usual: 9100 },
  auth: { variable: 'HTTP_PORT', hostVariable: 'HTTP_HOST', usual: 9101 },
  inventory: { variable: 'HTTP_PORT', hostVariable: 'HTTP_HOST', usual: 9102 },
  media: { variable: 'HTTP_PORT', hostVariable: 'HTTP_HOST', usual: 9103 },
  monitor: { variable: 'HTTP_PORT', hostVariable: 'HTTP_HOST', usual: 9104 },
};

/**
 * Where each service's probe or metrics port goes. A port given in the environment is kept (and
 * refused at once, naming it, when something already listens there); 0 stays 0. Otherwise the
 * usual port when it is free, so one system is where the docs say, else a free one from the
 * system: a second system on this machine (its own PORT and CM_NAMESPACE) starts beside the first
 * instead of failing on a taken port. The ports are held until the plan is whole, so that no two
 * services get the same one; those picked here stay claimed until releasePorts (startStack: when
 * the system stops), so that a second launcher planning before this one's processes listen picks others.
 *
 * @param {object} options
 * @param {Record<string,string|undefined>} options.env variables of every service
 * @param {Record<string,Record<string,string>>} [options.serviceEnv] variables of one service
 * @param {string[]} [options.services]
 * @param {Record<string,number>} [options.usual] the port to prefer per service (9100–9104)
 * @returns {Promise<Record<string,{ variable: string, port: number, host: string, chosen: boolean }>>}
 *   `chosen`: picked here rather than given
 */
async function planPorts({ env, serviceEnv = {}, services = SERVICES, usual = {} }) {
  const plan = {};
  const held = [];
  try {
    for (const service of services) {
      const { variable, hostVariable, usual: defaultPort } = SIDE_PORTS[service];
      const own = { ...env, ...serviceEnv[service] };
      const host = own[hostVariable] || '127.0.0.1';
      const given = own[variable];
      if (given !== undefined && given !== '') {
        const port = Number(given);
        if (port !== 0) {
          const server = await tryListen(port, host);
          if (!server)
            throw new Error(
              `${variable}=${port} of ${service} is taken on ${host} (another system on this machine?): ` +
                `leave ${variable} unset to take a free port, or give another`,
            );
          held.push(server);
        }
        plan[service] = { variable, port, host, chosen: false };
        continue;
      }
      const server = await claimFreePort(usual[service] ?? defaultPort, host);
      held.push(server);
      plan[service] = { variable, port: server.address().port, host, chosen: true };
    }
  } catch (error) {
    releasePorts(plan);
    throw error;
  } finally {
    await Promise.all(held.map((server) => new Promise((resolve) => server.close(resolve))));
  }
  return plan;
}

/**
 * A listening server on `preferred` when it is free and no other launcher claimed it, else on a
 * free port claimed ahead (./port-claims.cjs); the port stays claimed until releasePorts, so that a
 * launcher starting at the same moment leaves it to this one's process.
 */
async function claimFreePort(preferred, host) {
  const server = await tryListen(preferred, host);
  if (server && claimPort(preferred, host)) return server;
  if (server) await new Promise((resolve) => server.close(resolve));
  return claimPortAhead(host);
}

/** Gives up the ports a plan claimed (see planPorts). */
function releasePorts(plan = {}) {
  for (const { port, host, chosen } of Object.values(plan)) if (chosen) releasePort(port, host);
}

async function startLocalS3({ directory, port }) {
  const S3rver = require('s3rver');
  fs.mkdirSync(directory, { recursive: true });
  const server = new S3rver({ address: '127.0.0.1', port, silent: true, directory });
  const address = await server.run();
  // It answers unsigned requests: loopback only, whatever the machine's other addresses.
  return { endpoint: `http://127.0.0.1:${address.port}`, address, close: () => server.close() };
}

/**
 * The gateway signs session cookies with SESSION_SECRET. Unless one is given, a random one is
 * made once and kept in the data folder, so that sessions survive a restart of `npm start`.
 */
function sessionSecret(dataDir) {
  const file = path.join(dataDir, 'session-secret');
  try {
    const kept = fs.readFileSync(file, 'utf8').trim();
    if (kept.length >= 32) return kept;
  } catch {
    // none yet
  }
  const secret = crypto.randomBytes(32).toString('base64url');
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

async function waitUntilReady(url, { timeoutMs, exited }) {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer yet';
  while (Date.now() < deadline) {
    if (exited.length) throw new Error(`The system did not start: ${exited.join('; ')}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(3000) });
      const body = await res.text();
      if (res.ok) return JSON.parse(body);
      last = body;
    } catch (error) {
      last = error.message;
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error(`The system did not become ready within ${timeoutMs / 1000} s: ${last}`);
}

/**
 * The variables every service starts with, from those given, with the gateway on `port`. Unless
 * PUBLIC_ORIGIN is given, the app's origins are the address printed (and its localhost twin): the
 * gateway would otherwise take its own origin from each request's Host, which a DNS-rebinding page
 * chooses, and the cross-site check would pass whatever Origin matched it.
 * @param {Record<string,string|undefined>} given
 * @param {number} port
 */
function stackEnv(given, port) {
  const env = { ...given };
  env.CM_NAMESPACE ??= 'cm';
  if (!env.PUBLIC_ORIGIN) env.PUBLIC_ORIGIN = `http://127.0.0.1:${port},http://localhost:${port}`;
  // Alert messages link to the room at the address the app is served from (the first origin).
  env.ALERTS_APP_URL ??= env.PUBLIC_ORIGIN;
  return env;
}

/**
 * @param {object} options
 * @param {Record<string,string>} [options.env] variables for every service (on top of process.env)
 * @param {Record<string,Record<string,string>>} [options.serviceEnv] variables of one service (its NATS user)
 * @param {number} [options.port] the gateway's port; 0 picks a free one
 * @param {boolean} [options.ephemeralPorts] every probe and metrics port 0, each process binding a
 *   free one itself (tests: nothing to plan, nothing to race for); otherwise see planPorts
 * @param {string} [options.dataDir] where the local S3 server keeps objects, the session secret, the encryption keys (./local-keys.cjs) and the first administrator's password
 * @param {(service: string, line: string) => void} [options.onLine] each log line of each service
 * @param {(service: string, code: number|null, signal: string|null) => void} [options.onExit] a service stopped unasked
 *   (and is not restarted)
 * @param {boolean} [options.restart] once the system is ready, start a service that stopped unasked
 *   again, waiting longer each time it keeps failing (./supervisor.cjs). `npm start` does; the
 *   end-to-end systems only where a test asks, since most must see a service that crashes.
 * @param {(service: string, message: string) => void} [options.onRestart] a service stopped unasked and
 *   is started again after a wait, which the message names
 * @param {string[]} [options.services] which services to start (all by default)
 * @param {boolean} [options.ownNats] run a NATS server of the system's own in `<dataDir>/nats`, with
 *   a user per service (scripts/local-nats.cjs), rather than use NATS_URL
 */
async function startStack(options = {}) {
  const given = { ...process.env, ...options.env };
  const services = options.services ?? SERVICES;
  if (options.port) {
    // Said plainly here rather than by the gateway failing after every other service started.
    const server = await tryListen(options.port, given.HOST || '127.0.0.1');
    if (!server)
      throw new Error(`Port ${options.port} is taken (another system on this machine?): choose another PORT`);
    await new Promise((resolve) => server.close(resolve));
  }
  // Chosen here, since every service's origins name it; claimed until the system stops.
  const chosenPort = !options.port;
  const port = chosenPort ? await portAhead() : options.port;
  const env = stackEnv(given, port);
  const sidePorts = options.ephemeralPorts
    ? undefined
    : await planPorts({ env, serviceEnv: options.serviceEnv, services });
  const onLine = options.onLine ?? (() => {});
  const dataDir = options.dataDir ?? path.join(ROOT, '.data');
  /** How each service that stopped unasked stopped, with its last log lines (onLine may drop them). */
  const exited = [];
  env.SESSION_SECRET ??= sessionSecret(dataDir);
  applyLocalKeys(env, dataDir);
  // Where auth keeps the first administrator's generated password (never in its log).
  if (!env.ADMIN_PASSWORD_SECRET) env.ADMIN_PASSWORD_OUTPUT_FILE ??= path.join(dataDir, 'admin-password');
  let nats;
  const serviceEnvOf = { ...options.serviceEnv };
  if (options.ownNats) {
    nats = await startLocalNats({
      dataDir: path.join(dataDir, 'nats'),
      namespace: env.CM_NAMESPACE,
      onExit: (code, signal) => {
        exited.push(`nats-server stopped with ${signal ?? `exit code ${code}`}`);
        options.onExit?.('nats', code, signal);
      },
    });
    env.NATS_URL = nats.url;
    for (const service of services) {
      const login = nats.serviceEnv[service];
      // One way of logging in at a time (the services refuse two): the system's users replace any other.
      serviceEnvOf[service] = { NATS_TOKEN: '', NATS_CREDS_FILE: '', ...serviceEnvOf[service], ...login };
    }
  }
  let s3;
  if (!env.S3_ENDPOINT) {
    try {
      s3 = await startLocalS3({
        directory: path.join(dataDir, 's3'),
        port: Number(env.S3_PORT ?? 0),
      });
    } catch (error) {
      await nats?.stop();
      throw error;
    }
    // Browsers upload through the gateway (no S3_PUBLIC_ENDPOINT), as with docker-compose.yml.
    env.S3_ENDPOINT = s3.endpoint;
    env.S3_ACCESS_KEY_ID ??= LOCAL_S3_KEY;
    env.S3_SECRET_ACCESS_KEY ??= LOCAL_S3_KEY;
  }

  const children = new Map();
  const lastLines = new Map(services.map((service) => [service, []]));
  let stopping = false;
  let ready = false;
  const supervision = options.restart ? { waits: new Map(), timers: new Set() } : undefined;
  const spawnService = (service) => {
    const serviceEnv = { ...env, ...serviceEnvOf[service] };
    if (service === 'gateway') serviceEnv.PORT = String(port);
    const { variable } = SIDE_PORTS[service];
    serviceEnv[variable] = sidePorts ? String(sidePorts[service].port) : '0';
    const child = spawn(process.execPath, [path.join(ROOT, 'services', service, 'dist', 'main.js')], {
      env: serviceEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const startedAt = Date.now();
    for (const stream of [child.stdout, child.stderr]) {
      readline.createInterface({ input: stream }).on('line', (line) => {
        const last = lastLines.get(service);
        last.push(line);
        if (last.length > LAST_LINES) last.shift();
        onLine(service, line);
      });
    }
    child.on('exit', (code, signal) => {
      if (children.get(service) === child) children.delete(service);
      if (stopping) return;
      // A failure during start-up (a bad setting) is said at once rather than retried for ever.
      if (supervision && ready) {
        const delayMs = restartDelay(supervision.waits.get(service), Date.now() - startedAt);
        supervision.waits.set(service, delayMs);
        options.onRestart?.(service, restartMessage(service, code, signal, delayMs));
        const timer = setTimeout(() => {
          supervision.timers.delete(timer);
          if (!stopping) spawnService(service);
        }, delayMs);
        supervision.timers.add(timer);
        return;
      }
      const how = signal ? `signal ${signal}` : `exit code ${code}`;
      const said = lastLines.get(service).join('\n');
      exited.push(`${service} exited during start-up with ${how}${said ? `; its last lines:\n${said}` : ''}`);
      options.onExit?.(service, code, signal);
    });
    children.set(service, child);
  };
  for (const service of services) spawnService(service);

  let stopped;
  const stop = (graceMs = 10_000) => (stopped ??= stopAll(graceMs));
  const stopAll = async (graceMs) => {
    stopping = true;
    for (const timer of supervision?.timers ?? []) clearTimeout(timer);
    await Promise.all(
      [...children.values()].map(
        (child) =>
          new Promise((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
            child.once('exit', () => {
              clearTimeout(timer);
              resolve();
            });
            child.kill('SIGTERM');
          }),
      ),
    );
    await s3?.close();
    await nats?.stop();
    releasePorts(sidePorts);
    if (chosenPort) releasePort(port, '127.0.0.1');
  };

  const url = `http://127.0.0.1:${port}`;
  try {
    // The whole system, not just the gateway's own readiness: every service answers with its checks.
    await waitUntilReady(`${url}/api/status/system`, { timeoutMs: options.readyTimeoutMs ?? 90_000, exited });
    ready = true;
  } catch (error) {
    await stop(2000);
    throw error;
  }
  return {
    url,
    port,
    sidePorts,
    namespace: env.CM_NAMESPACE,
    env,
    children,
    stop,
    s3Endpoint: env.S3_ENDPOINT,
    natsUrl: env.NATS_URL,
  };
}

module.exports = {
  startStack,
  stackEnv,
  planPorts,
  releasePorts,
  startLocalS3,
  SERVICES,
  SIDE_PORTS,
  ROOT,
};
