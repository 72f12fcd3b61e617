// `npm start`: installs what is missing, builds, and runs the whole system on this machine.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { startStack, SIDE_PORTS } = createRequire(import.meta.url)('./stack.cjs');

function fail(message) {
  console.error(`\n${message}\n`);
  process.exit(1);
}

function run(command, args, extraEnv = {}) {
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...extraEnv },
  });
  if (result.status !== 0)
    fail(`"${command} ${args.join(' ')}" failed (exit ${result.status ?? result.signal}).`);
}

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 20 || (major === 20 && minor < 19))
  fail(`Node.js 20.19 or newer is needed; this is ${process.version}.`);

const lock = path.join(root, 'package-lock.json');
const installed = path.join(root, 'node_modules', '.package-lock.json');
if (!existsSync(installed) || statSync(installed).mtimeMs < statSync(lock).mtimeMs) {
  console.log('Installing dependencies (npm ci)...');
  run('npm', ['ci', '--no-audit', '--no-fund']);
}

// Without NATS_URL the system runs a NATS server of its own, with a user per service and their
// permissions (scripts/local-nats.cjs); a NATS_URL given is used as it is, with the NATS_USER… given.
const ownNats = !process.env.NATS_URL;
// Local services are started or installed only where the URLs point at this machine.
const databaseUrl = new URL(
  process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/classroom_monitor',
);
const natsUrl = new URL((process.env.NATS_URL ?? 'nats://127.0.0.1:4222').split(',')[0]);
const isLocal = (host) => ['127.0.0.1', 'localhost', '::1', '[::1]'].includes(host);
if (isLocal(databaseUrl.hostname) || isLocal(natsUrl.hostname)) {
  run('bash', ['scripts/ensure-services.sh'], {
    PG_HOST: databaseUrl.hostname === 'localhost' ? '127.0.0.1' : databaseUrl.hostname,
    PG_PORT: databaseUrl.port || '5432',
    NATS_HOST: natsUrl.hostname === 'localhost' ? '127.0.0.1' : natsUrl.hostname,
    NATS_PORT: natsUrl.port || '4222',
    // The system's own server is started with it: only the program has to be there.
    NATS_PROGRAM_ONLY: ownNats ? '1' : '',
  });
}

console.log('Building (cached when nothing changed)...');
run('npx', ['nx', 'run-many', '-t', 'build', '--output-style=static'], { NX_DAEMON: 'false' });

const colours = { auth: 35, inventory: 32, media: 36, monitor: 33, gateway: 34, nats: 31 };
function printLine(service, line) {
  const tag = `\x1b[${colours[service] ?? 37}m${service.padEnd(9)}\x1b[0m`;
  try {
    const { time, level, msg, context, ...rest } = JSON.parse(line);
    if (context === 'RouterExplorer' || context === 'RoutesResolver' || context === 'InstanceLoader') return;
    const extra = rest.detail ?? rest.problems ?? rest.stack;
    const when = typeof time === 'string' ? time.slice(11, 19) : '';
    console.log(`${tag} ${when} ${level.padEnd(5)} ${msg ?? ''}${extra ? ` ${JSON.stringify(extra)}` : ''}`);
  } catch {
    console.log(`${tag} ${line}`);
  }
}

let stack;
let stopping = false;
async function shutdown(code) {
  if (stopping) return;
  stopping = true;
  console.log('\nStopping every service...');
  await stack?.stop();
  console.log('Stopped.');
  process.exit(code);
}
process.on('SIGINT', () => shutdown(0));
process.on('SIGTERM', () => shutdown(0));

try {
  stack = await startStack({
    port: Number(process.env.PORT ?? 8080),
    dataDir: path.join(root, '.data'),
    ownNats,
    onLine: printLine,
    // One crashed service is started again while the others go on serving; Ctrl-C stops them all.
    restart: true,
    onRestart: (service, message) => console.error(`\n${message}`),
    onExit: (service, code, signal) => {
      console.error(`\n${service} stopped unexpectedly (${signal ?? `exit ${code}`}).`);
      void shutdown(1);
    },
  });
} catch (error) {
  fail(`Could not start Classroom Monitor: ${error.message}`);
}
// Probe and metrics ports move off their usual 9100–9104 when another system holds them: say where.
const sidePorts = Object.entries(stack.sidePorts)
  .map(([service, { variable, port, chosen }]) => {
    const usual = SIDE_PORTS[service].usual;
    return `${service} ${variable} ${port}${chosen && port !== usual ? ` (${usual} is taken)` : ''}`;
  })
  .join(', ');
const passwordFile = stack.env.ADMIN_PASSWORD_OUTPUT_FILE;
const firstSignIn =
  !stack.env.ADMIN_PASSWORD && passwordFile && existsSync(passwordFile)
    ? `\n  First sign-in: ${stack.env.ADMIN_USERNAME ?? 'admin'}, with the password in ${path.relative(root, passwordFile)}` +
      '\n  (change it in the app, then delete the file)\n'
    : '';
const natsLine = ownNats
  ? `  NATS: ${stack.natsUrl}, a user per service (passwords in .data/nats/passwords.json)\n`
  : '';
console.log(
  `\n  Classroom Monitor is running at ${stack.url}\n  (namespace ${stack.namespace}; press Ctrl-C to stop)\n` +
    `  Probes and metrics: ${sidePorts}\n${natsLine}${firstSignIn}`,
);
