// How `npm start` brings back a service that stopped unasked, as a cluster would: at once the
// first time, then waiting longer each time it keeps failing, so that a service that cannot run
// (its database gone) does not spin the machine, while the others go on serving.

/** 1 s, doubling to 30 s; a process that ran a minute counts as healthy again. */
const RESTART = { firstMs: 1000, maxMs: 30_000, healthyAfterMs: 60_000 };

/**
 * How long to wait before starting a process again that stopped after running `ranMs`, the wait
 * before its previous restart having been `previousMs` (undefined: none yet).
 */
function restartDelay(previousMs, ranMs, policy = RESTART) {
  if (previousMs === undefined || ranMs >= policy.healthyAfterMs) return policy.firstMs;
  return Math.min(previousMs * 2, policy.maxMs);
}

/** What the log says: "inventory exited with signal SIGKILL; restarting in 1 s". */
function restartMessage(service, code, signal, delayMs) {
  const how = signal ? `signal ${signal}` : `exit code ${code}`;
  return `${service} exited with ${how}; restarting in ${Math.round(delayMs / 100) / 10} s`;
}

module.exports = { RESTART, restartDelay, restartMessage };
