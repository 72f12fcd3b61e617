import { createServer, type Server, type Socket } from 'node:net';

export interface TcpListener {
  host: string;
  port: number;
  /** Connections open now: a probe that closes its own brings this back to 0. */
  readonly openConnections: number;
  /** Connections accepted since the start. */
  readonly accepted: number;
  /** Stops listening and drops every open connection. */
  close(): Promise<void>;
}

/** A TCP server on a loopback address (port 0: any free one) that closes its connections with it. */
export async function listenTcp(
  host: string,
  port: number,
  onConnection: (socket: Socket) => void,
): Promise<TcpListener> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    accepted += 1;
    socket.once('close', () => sockets.delete(socket));
    // A probe that hangs up midway is ordinary; it must not take the simulator down.
    socket.on('error', () => socket.destroy());
    socket.setNoDelay(true);
    onConnection(socket);
  });
  await listening(server, host, port);
  return {
    host,
    port: (server.address() as { port: number }).port,
    get openConnections() {
      return sockets.size;
    },
    get accepted() {
      return accepted;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

export function listening(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host, port }, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
