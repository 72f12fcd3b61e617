import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { Server } from 'node:net';
import { selfSignedCertificate } from './self-signed-certificate';
import { listening } from './tcp-listener';

const DAY_MS = 86_400_000;

/** How the simulated web server answers; may change while it runs (`update`). */
export interface HttpBehaviour {
  status: number;
  /** Accepts the request and never answers, as a hung web server does. */
  silent?: boolean;
}

export interface HttpSimulatorOptions extends HttpBehaviour {
  host: string;
  port?: number;
  /** HTTPS with a self-signed certificate that expires this many days from now (negative: expired). */
  tls?: { expiresInDays: number };
}

export interface HttpSimulator {
  host: string;
  port: number;
  /** The certificate's expiry, to the second, when serving HTTPS. */
  certificateExpiresAt?: Date;
  readonly behaviour: HttpBehaviour;
  update(patch: Partial<HttpBehaviour>): void;
  close(): Promise<void>;
}

/** A device's web server on loopback: every path answers with the set status, over HTTP or HTTPS. */
export async function startHttpSimulator(options: HttpSimulatorOptions): Promise<HttpSimulator> {
  const behaviour: HttpBehaviour = { status: options.status, silent: options.silent };
  const handler = (_request: IncomingMessage, response: ServerResponse) => {
    if (behaviour.silent) return;
    response.writeHead(behaviour.status, { 'content-type': 'text/plain' });
    response.end(`${behaviour.status}\n`);
  };
  const certificate = options.tls
    ? await selfSignedCertificate(
        options.host,
        new Date(Date.now() + Math.min(options.tls.expiresInDays, 0) * DAY_MS - 365 * DAY_MS),
        new Date(Date.now() + options.tls.expiresInDays * DAY_MS),
      )
    : undefined;
  const server = certificate
    ? createHttpsServer({ key: certificate.key, cert: certificate.cert }, handler)
    : createHttpServer(handler);
  await listening(server as Server, options.host, options.port ?? 0);
  return {
    host: options.host,
    port: (server.address() as { port: number }).port,
    certificateExpiresAt: certificate?.notAfter,
    behaviour,
    update: (patch) => Object.assign(behaviour, patch),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
