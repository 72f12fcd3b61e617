// Loaded with `NODE_OPTIONS=--require …/cpu-profile.cjs` (NODE_OPTIONS refuses --cpu-prof): profiles
// the whole process with V8's sampling profiler and writes a .cpuprofile into CPU_PROFILE_DIR when
// it exits. Chrome DevTools or `node bench/support/profile-summary.mjs` read it.
const { Session } = require('node:inspector');
const { mkdirSync, writeFileSync } = require('node:fs');
const path = require('node:path');

const dir = process.env.CPU_PROFILE_DIR;
if (dir) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  // 0.25 ms: finer than the default 1 ms, for requests that take a few milliseconds of CPU.
  session.post('Profiler.setSamplingInterval', { interval: 250 });
  session.post('Profiler.start');
  // A session on the process's own thread answers synchronously, so this works in an exit handler.
  process.on('exit', () => {
    session.post('Profiler.stop', (error, result) => {
      if (error) return;
      const name = process.env.CPU_PROFILE_NAME ?? path.basename(process.argv[1] ?? 'node');
      const file = path.join(dir, `${name}-${process.pid}.cpuprofile`);
      // Made here, as the process exits: a folder missing then lost the profile without a word.
      mkdirSync(dir, { recursive: true });
      writeFileSync(file, JSON.stringify(result.profile));
    });
  });
}
