// Claims on the ports that a launcher picked for its processes. A port found free
// is only free until someone binds it, and a service binds its port seconds after the launcher looked:
// two `npm start`s at the same moment both found 9104 free and one monitor died. A claim is a file
// created exclusively (one creator wins, however close together), naming the launcher's pid; it is
// given up when the system stops, and a claim whose launcher is gone no longer counts. Ports picked
// here come from outside the range of outgoing connections, which no claim could keep away.
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');

const CLAIMS = path.join(os.tmpdir(), 'classroom-monitor-ports');

const fileOf = (port, host) => path.join(CLAIMS, `${host.replace(/[^0-9A-Za-z.]/g, '_')}-${port}`);

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, another user's.
    return error.code === 'EPERM';
  }
}

/** Whether this launcher now holds the port: false when another one (this one included) claimed it. */
function claimPort(port, host) {
  const file = fileOf(port, host);
  try {
    fs.mkdirSync(CLAIMS, { recursive: true });
    fs.chmodSync(CLAIMS, 0o1777); // every user's launchers claim here (sticky: each removes only its own)
  } catch (error) {
    if (error.code !== 'EPERM') throw error; // another user made it
  }
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, `${process.pid}\n`, { flag: 'wx', mode: 0o644 });
      return true;
    } catch (error) {
      // A folder this user may not write in: binding alone decides, as before claims.
      if (error.code === 'EACCES') return true;
      if (error.code !== 'EEXIST') throw error;
    }
    let owner;
    try {
      owner = Number(fs.readFileSync(file, 'utf8').trim());
    } catch (error) {
      if (error.code === 'ENOENT') continue; // given up just now: try again
      throw error;
    }
    if (owner && isAlive(owner)) return false;
    // Left by a launcher that was killed: no longer counts.
    fs.rmSync(file, { force: true });
  }
  return false;
}

/** Gives the claim up, if this launcher holds it. */
function releasePort(port, host) {
  const file = fileOf(port, host);
  try {
    if (Number(fs.readFileSync(file, 'utf8').trim()) === process.pid) fs.rmSync(file, { force: true });
  } catch {
    // never claimed, or already given up
  }
}

/** A server listening on the port (0: any free one), or null when the port is taken. */
function tryListen(port, host) {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', (error) => (error.code === 'EADDRINUSE' ? resolve(null) : reject(error)));
    server.listen({ port, host, exclusive: true }, () => resolve(server));
  });
}

/** Ports below this are left to the machine's own services. */
const LOWEST = 10_000;

/**
 * The ports a process may be told to bind later: those outside the range the kernel hands outgoing
 * connections their local ports from. A port from that range, found free, can be taken by any
 * connection before its process binds it (a second gateway failed to start with EADDRINUSE so).
 */
function portsToChooseFrom() {
  let low = 32768;
  let high = 60999;
  try {
    [low, high] = fs
      .readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/)
      .map(Number);
  } catch {
    [low, high] = [49152, 65535]; // IANA's dynamic range, which other systems use
  }
  const spans = [
    [LOWEST, low - 1],
    [high + 1, 65535],
  ].filter(([from, to]) => to >= from);
  return spans.length ? spans : [[LOWEST, 65535]];
}

/**
 * A server listening on a free port of `host` that this launcher now claims, for a process that
 * binds the port itself later: chosen outside the outgoing connections' range (portsToChooseFrom)
 * and claimed against other launchers. Close the server before the process starts (keep it while
 * choosing more, so that none comes twice); give the claim up with releasePort once it is done.
 */
async function claimPortAhead(host = '127.0.0.1') {
  const spans = portsToChooseFrom();
  const size = spans.reduce((sum, [from, to]) => sum + to - from + 1, 0);
  for (let attempt = 0; attempt < 100; attempt++) {
    let port = Math.floor(Math.random() * size);
    for (const [from, to] of spans) {
      if (port <= to - from) {
        port += from;
        break;
      }
      port -= to - from + 1;
    }
    const server = await tryListen(port, host);
    if (!server) continue;
    if (claimPort(port, host)) return server;
    await new Promise((resolve) => server.close(resolve));
  }
  throw new Error(`No free port on ${host} outside the range of outgoing connections`);
}

/** The number of a port claimed ahead (claimPortAhead), free again for its process to bind. */
async function portAhead(host = '127.0.0.1') {
  const server = await claimPortAhead(host);
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

module.exports = { claimPort, releasePort, tryListen, claimPortAhead, portAhead, CLAIMS };
