// Claims on the probe and metrics ports that a launcher picked for its processes. A port found free
// is only free until someone binds it, and a service binds its port seconds after the launcher looked:
// two `npm start`s at the same moment both found 9104 free and one monitor died. A claim is a file
// created exclusively (one creator wins, however close together), naming the launcher's pid; it is
// given up when the system stops, and a claim whose launcher is gone no longer counts.
const fs = require('node:fs');
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

module.exports = { claimPort, releasePort, CLAIMS };
