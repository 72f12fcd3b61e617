import { listenTcp, type TcpListener } from './tcp-listener';

export interface TcpSimulatorOptions {
  host: string;
  port?: number;
}

export type TcpSimulator = TcpListener;

/**
 * A port that accepts connections and never says a word: a device whose protocol is closed
 * (Crestron's 41794), or one that hangs after accepting.
 */
export function startTcpSimulator(options: TcpSimulatorOptions): Promise<TcpSimulator> {
  return listenTcp(options.host, options.port ?? 0, (socket) => socket.resume());
}
