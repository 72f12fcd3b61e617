import type { NextFunction, Request, Response } from 'express';
import { waitAtMost } from './wait-at-most';

let draining = false;
const exitTasks: (() => Promise<void>)[] = [];

/** How long each exit task may take: well inside the 5 s the chart leaves after SHUTDOWN_TIMEOUT_MS. */
const EXIT_TASK_TIMEOUT_MS = 2000;

/** True once the process has been asked to stop (SIGTERM or SIGINT). */
export const isDraining = (): boolean => draining;

export function startDraining(): void {
  draining = true;
}

/**
 * While the process drains, every response closes its connection. A server that is closing waits
 * for its open connections, and a client under load keeps a keep-alive connection busy forever:
 * closed after each answer, the client reconnects, and reaches another replica.
 */
export function closeConnectionsWhenDraining() {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (draining) res.setHeader('Connection', 'close');
    res.once('finish', () => {
      // In flight when the signal came: its headers went out keep-alive, so end the connection here.
      if (draining && !req.socket.destroyed) req.socket.end();
    });
    next();
  };
}

/**
 * Work left for after the app has closed, before the process exits: sending the spans of its last
 * requests. Telemetry starts before Nest is loaded, so it adds its own task here.
 */
export function onExit(task: () => Promise<void>): void {
  exitTasks.push(task);
}

/**
 * Runs the exit tasks once, side by side, each for at most `timeoutMs`: a collector that does not
 * answer loses what was for it rather than hold the exit.
 */
export async function runExitTasks(timeoutMs = EXIT_TASK_TIMEOUT_MS): Promise<void> {
  await Promise.allSettled(
    exitTasks.splice(0).map((task) => waitAtMost(timeoutMs, Promise.resolve().then(task))),
  );
}
