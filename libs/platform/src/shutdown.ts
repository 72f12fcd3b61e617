import type { NextFunction, Request, Response } from 'express';

let draining = false;

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
