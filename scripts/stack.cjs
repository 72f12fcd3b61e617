// Starts and stops the whole system on one machine: an S3-API server on loopback (unless
// S3_ENDPOINT points elsewhere) and the five services as child processes. Used by
// `npm start` and by the end-to-end tests, so that both run the system the same way.
const { spawn } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const readline = require('node:readline');

const ROOT = path.resolve(__dirname, '..');
const SERVICES = ['auth', 'inventory', 'media', 'monitor', 'gateway'];
/** s3rver's fixed credentials: it is a local development store, never a real one. */
const LOCAL_S3_KEY = 'S3RVER';

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
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
    if (exited.length) throw new Error(`${exited.join(', ')} exited during start-up (see its log above)`);
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
 * @param {object} options
 * @param {Record<string,string>} [options.env] variables for every service (on top of process.env)
 * @param {Record<string,Record<string,string>>} [options.serviceEnv] variables of one service (its NATS user)
 * @param {number} [options.port] the gateway's port; 0 picks a free one
 * @param {boolean} [options.ephemeralPorts] give every probe port a free one (tests, second stacks)
 * @param {string} [options.dataDir] where the local S3 server keeps objects
 * @param {(service: string, line: string) => void} [options.onLine] each log line of each service
 * @param {(service: string, code: number|null, signal: string|null) => void} [options.onExit] a service stopped unasked
 * @param {string[]} [options.services] which services to start (all by default)
 */
async function startStack(options = {}) {
  const env = { ...process.env, ...options.env };
  env.CM_NAMESPACE ??= 'cm';
  const port = options.port === 0 || options.port === undefined ? await freePort() : options.port;
  const onLine = options.onLine ?? (() => {});
  const dataDir = options.dataDir ?? path.join(ROOT, '.data');
  env.SESSION_SECRET ??= sessionSecret(dataDir);
  let s3;
  if (!env.S3_ENDPOINT) {
    s3 = await startLocalS3({
      directory: path.join(dataDir, 's3'),
      port: Number(env.S3_PORT ?? 0),
    });
    env.S3_ENDPOINT = s3.endpoint;
    // Browsers PUT presigned uploads to it: the gateway's Content-Security-Policy must allow it.
    env.S3_PUBLIC_ENDPOINT ??= s3.endpoint;
    env.S3_ACCESS_KEY_ID ??= LOCAL_S3_KEY;
    env.S3_SECRET_ACCESS_KEY ??= LOCAL_S3_KEY;
  }

  const children = new Map();
  const exited = [];
  let stopping = false;
  for (const service of options.services ?? SERVICES) {
    const serviceEnv = { ...env, ...options.serviceEnv?.[service] };
    if (service === 'gateway') {
      serviceEnv.PORT = String(port);
      if (options.ephemeralPorts) serviceEnv.METRICS_PORT = '0';
    } else if (options.ephemeralPorts) serviceEnv.HTTP_PORT = '0';
    const child = spawn(process.execPath, [path.join(ROOT, 'services', service, 'dist', 'main.js')], {
      env: serviceEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const stream of [child.stdout, child.stderr]) {
      readline.createInterface({ input: stream }).on('line', (line) => onLine(service, line));
    }
    child.on('exit', (code, signal) => {
      children.delete(service);
      if (stopping) return;
      exited.push(service);
      options.onExit?.(service, code, signal);
    });
    children.set(service, child);
  }

  let stopped;
  const stop = (graceMs = 10_000) => (stopped ??= stopAll(graceMs));
  const stopAll = async (graceMs) => {
    stopping = true;
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
  };

  const url = `http://127.0.0.1:${port}`;
  try {
    await waitUntilReady(`${url}/api/readyz`, { timeoutMs: options.readyTimeoutMs ?? 90_000, exited });
  } catch (error) {
    await stop(2000);
    throw error;
  }
  return { url, port, namespace: env.CM_NAMESPACE, env, children, stop, s3Endpoint: env.S3_ENDPOINT };
}

module.exports = { startStack, freePort, startLocalS3, SERVICES, ROOT };
