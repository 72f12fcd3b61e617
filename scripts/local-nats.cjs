// The NATS server of the system `npm start` runs: a server of its own on loopback, with a user per
// service and the permissions compose and the Helm chart give them (`natsAuthorizationConfig`, as
// `scripts/nats-config.mjs` prints it), so that nothing on this machine gets on the bus without a
// password. The machine's NATS (the tests' shared one) is left as it is: it has no users.
//
// In `<dataDir>` (the system's `.data/nats`, readable by its owner alone): `passwords.json`, made
// once and kept; `nats.conf`, written at each start for the namespace; JetStream's store `js/`;
// the server's log `nats.log`; and `nats.pid` while it runs.
const { spawn } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { portAhead, releasePort, tryListen } = require('./port-claims.cjs');

/** The client port it takes when free (the machine's NATS usually has 4222). */
const USUAL_PORT = 4223;
const READY_TIMEOUT_MS = 30_000;

function contracts() {
  // Built by `npm start` before the system starts.
  return require('@cm/contracts');
}

/** The nats-server program: on the PATH, or where Debian's package puts it. */
function natsServerBinary() {
  const candidates = [
    ...(process.env.PATH ?? '')
      .split(path.delimiter)
      .filter(Boolean)
      .map((dir) => path.join(dir, 'nats-server')),
    '/usr/sbin/nats-server',
    '/usr/bin/nats-server',
  ];
  const found = candidates.find((file) => {
    try {
      fs.accessSync(file, fs.constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
  if (!found) throw new Error('nats-server is not installed (scripts/ensure-services.sh installs it)');
  return found;
}

/** A file only its owner may read, whatever the umask and whatever mode an older copy had. */
function writePrivate(file, text) {
  fs.writeFileSync(file, text, { mode: 0o600 });
  fs.chmodSync(file, 0o600);
}

/** Each principal's password, generated once and kept, so that a restart keeps its users. */
function passwordsIn(dir) {
  const { natsPrincipals } = contracts();
  const file = path.join(dir, 'passwords.json');
  let kept = {};
  try {
    kept = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    // none yet
  }
  const passwords = Object.fromEntries(
    natsPrincipals.map((p) => [
      p,
      typeof kept[p] === 'string' && kept[p].length >= 32
        ? kept[p]
        : crypto.randomBytes(24).toString('base64url'),
    ]),
  );
  writePrivate(file, `${JSON.stringify(passwords, null, 2)}\n`);
  return passwords;
}

/**
 * A server an earlier run left behind (its launcher killed): it holds the JetStream store, so it
 * is stopped, but only when it runs this very configuration file.
 */
function stopLeftOver(pidFile, configFile) {
  let pid;
  try {
    pid = Number(fs.readFileSync(pidFile, 'utf8').trim());
  } catch {
    return;
  }
  try {
    const commandLine = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    if (commandLine.includes('nats-server') && commandLine.includes(configFile)) process.kill(pid, 'SIGTERM');
  } catch {
    // Gone already.
  }
}

async function waitGone(pidFile, configFile) {
  for (let i = 0; i < 100; i++) {
    let alive = false;
    try {
      const pid = Number(fs.readFileSync(pidFile, 'utf8').trim());
      alive = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(configFile);
    } catch {
      alive = false;
    }
    if (!alive) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Starts the system's NATS server in `dataDir` for `namespace`.
 *
 * @param {object} options
 * @param {string} options.dataDir its folder (created readable by its owner alone)
 * @param {string} options.namespace CM_NAMESPACE: the users' permissions are the namespace's
 * @param {number} [options.port] the client port; by default 4223 when free, else any free one
 * @param {(code: number|null, signal: string|null) => void} [options.onExit] it stopped unasked
 * @returns {Promise<{ url: string, port: number, configFile: string,
 *   serviceEnv: Record<string, { NATS_USER: string, NATS_PASSWORD: string }>, stop(): Promise<void> }>}
 */
async function startLocalNats({ dataDir, namespace, port, onExit }) {
  const { natsAuthorizationConfig, natsPrincipals, natsUserName, isValidNamespace } = contracts();
  if (!isValidNamespace(namespace))
    throw new Error(`CM_NAMESPACE "${namespace}": lowercase letters, digits or _, starting with a letter`);
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dataDir, 0o700);
  const configFile = path.join(dataDir, 'nats.conf');
  const pidFile = path.join(dataDir, 'nats.pid');
  stopLeftOver(pidFile, configFile);
  await waitGone(pidFile, configFile);

  const passwords = passwordsIn(dataDir);
  let chosen = port;
  let claimed = false;
  if (chosen === undefined) {
    const usual = await tryListen(USUAL_PORT, '127.0.0.1');
    if (usual) await new Promise((resolve) => usual.close(resolve));
    claimed = !usual;
    chosen = usual ? USUAL_PORT : await portAhead();
  }
  writePrivate(
    configFile,
    [
      `# The NATS server of the system \`npm start\` runs (CM_NAMESPACE=${namespace}), written by`,
      '# scripts/local-nats.cjs at each start: changes here are lost.',
      `listen: "127.0.0.1:${chosen}"`,
      `jetstream { store_dir: ${JSON.stringify(path.join(dataDir, 'js'))} }`,
      `pid_file: ${JSON.stringify(pidFile)}`,
      // Quoted literals: the file is the owner's alone, like the passwords file beside it.
      natsAuthorizationConfig(namespace, (p) => JSON.stringify(passwords[p])),
    ].join('\n'),
  );

  const child = spawn(natsServerBinary(), ['-c', configFile], { stdio: ['ignore', 'ignore', 'pipe'] });
  const logFile = path.join(dataDir, 'nats.log');
  writePrivate(logFile, '');
  let said = '';
  let ready = false;
  child.stderr.on('data', (chunk) => {
    fs.appendFileSync(logFile, chunk);
    if (ready) return;
    said += chunk.toString();
  });
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`nats-server did not start within ${READY_TIMEOUT_MS / 1000} s:\n${said}`));
    }, READY_TIMEOUT_MS);
    const onEarlyExit = (code) => {
      clearTimeout(timer);
      reject(
        new Error(
          `nats-server exited with ${code} (its log: ${logFile}):\n${said.trim().split('\n').slice(-5).join('\n')}`,
        ),
      );
    };
    child.once('exit', onEarlyExit);
    child.stderr.on('data', () => {
      if (ready || !said.includes('Server is ready')) return;
      ready = true;
      said = '';
      clearTimeout(timer);
      child.off('exit', onEarlyExit);
      resolve();
    });
  });

  let stopping = false;
  child.once('exit', (code, signal) => {
    if (!stopping) onExit?.(code, signal);
  });
  const stop = async () => {
    stopping = true;
    if (claimed) releasePort(chosen, '127.0.0.1');
    if (child.exitCode !== null || child.signalCode !== null) return;
    await new Promise((resolve) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill('SIGTERM');
    });
  };

  return {
    url: `nats://127.0.0.1:${chosen}`,
    port: chosen,
    configFile,
    serviceEnv: Object.fromEntries(
      natsPrincipals.map((p) => [p, { NATS_USER: natsUserName(namespace, p), NATS_PASSWORD: passwords[p] }]),
    ),
    stop,
  };
}

module.exports = { startLocalNats, USUAL_PORT };
