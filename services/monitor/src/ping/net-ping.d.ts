// The parts of net-ping (no published types) that the pinger uses.
declare module 'net-ping' {
  export interface SessionOptions {
    sessionId?: number;
    timeout?: number;
    retries?: number;
    packetSize?: number;
    ttl?: number;
  }
  export interface RawSocket {
    setOption(level: number, option: number, value: number): void;
  }
  export interface Session {
    pingHost(
      target: string,
      callback: (error: Error | null, target: string, sent?: Date, received?: Date) => void,
    ): Session;
    getSocket(): RawSocket;
    close(): Session;
    on(event: 'error' | 'close', listener: (error?: Error) => void): Session;
  }
  export function createSession(options?: SessionOptions): Session;
  export class RequestTimedOutError extends Error {}
}

declare module 'raw-socket' {
  export const SocketLevel: { SOL_SOCKET: number };
  export const SocketOption: { SO_RCVBUF: number; SO_SNDBUF: number };
}
