import { createHash, randomBytes } from 'node:crypto';
import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import {
  agePjlink,
  answerPjlink,
  defaultPjlinkState,
  type PjlinkAgeing,
  type PjlinkDeviceState,
  type PjlinkInitialState,
  type PjlinkPower,
  setPjlinkPower,
} from './pjlink-device';

export * from './pjlink-device';

/** How the simulated device behaves on the wire; may be changed while it runs. */
export interface PjlinkBehaviour {
  /** Wait before each answer (the greeting comes at once), as slow projectors do: up to 2 s. */
  answerDelayMs: number;
  /** Send every line in three pieces a few milliseconds apart, so a client must join them. */
  splitPackets: boolean;
  /** Accept connections and read, but never greet nor answer: a hung network card. */
  silent: boolean;
}

export type PjlinkSimulatorOptions = PjlinkInitialState &
  Partial<PjlinkBehaviour> & {
    /** A loopback address (127.0.0.0/8 or ::1): simulators never listen elsewhere. */
    host: string;
    /** 0 (the default) takes a free port. */
    port?: number;
    class?: 1 | 2;
    /** When set, the device greets `PJLINK 1 <random>` and wants MD5(random + password). */
    password?: string;
    ageing?: PjlinkAgeing;
  };

/** Idle connections are dropped after this long, as the PJLink specification has devices do. */
const IDLE_MS = 30_000;
/** The specification's longest command is 136 bytes; a longer line is not PJLink. */
const LONGEST_LINE = 256;
const SPLIT_GAP_MS = 15;
const RECEIVED_KEPT = 200;

const commandLine = /^%([12])([A-Za-z0-9]{4}) (.*)$/;
const digestPrefix = /^[0-9a-fA-F]{32}/;

interface Session {
  random: string;
  /** The device's password when the connection opened. */
  password: string | undefined;
  authenticated: boolean;
}

/**
 * A PJLink projector on a loopback address. Like most real ones it serves one controller at a
 * time: a second connection while one is open is accepted by the network stack and closed at
 * once, before any greeting (the client sees the connection end without a word). The password,
 * when set, is checked on the first command; later commands may repeat the digest or leave it
 * out, as devices accept either. A wrong or missing digest is answered `PJLINK ERRA` and the
 * connection closed.
 */
export class PjlinkSimulator {
  readonly state: PjlinkDeviceState;
  readonly behaviour: PjlinkBehaviour;
  /** Applies to connections opened after it changes. */
  password: string | undefined;
  readonly deviceClass: 1 | 2;
  /** Commands received (digest removed), oldest first. */
  readonly received: string[] = [];
  /** Connections closed at once because another was open. */
  busyRefusals = 0;
  /** Connections accepted since the start, the refused ones among them. */
  connectionsAccepted = 0;
  /** The most connections open at one moment, a refused one counted while it was: 1 for a polite controller. */
  mostAtOnce = 0;
  private held: Promise<void> | undefined;
  private readonly ageing: PjlinkAgeing;
  private readonly sockets = new Set<Socket>();
  private active: Socket | undefined;

  private constructor(
    private readonly server: Server,
    readonly host: string,
    options: PjlinkSimulatorOptions,
  ) {
    const {
      host: _h,
      port: _p,
      class: deviceClass,
      password,
      ageing,
      answerDelayMs,
      splitPackets,
      silent,
      ...initial
    } = options;
    this.state = defaultPjlinkState(initial);
    this.behaviour = {
      answerDelayMs: answerDelayMs ?? 0,
      splitPackets: splitPackets ?? false,
      silent: silent ?? false,
    };
    this.password = password;
    this.deviceClass = deviceClass ?? 1;
    this.ageing = ageing ?? {};
    server.on('connection', (socket) => this.accept(socket));
  }

  static async start(options: PjlinkSimulatorOptions): Promise<PjlinkSimulator> {
    if (!/^127\.\d+\.\d+\.\d+$/.test(options.host) && options.host !== '::1')
      throw new Error(`Simulators listen on loopback addresses only, not ${options.host}`);
    const server = createServer();
    const simulator = new PjlinkSimulator(server, options.host, options);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ host: options.host, port: options.port ?? 0 }, () => {
        server.off('error', reject);
        resolve();
      });
    });
    return simulator;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** Connections open now (the refused ones close at once). */
  get openConnections(): number {
    return this.sockets.size;
  }

  /** Power with the lamps following it, as `%1POWR 1` would set it (without the warm-up). */
  setPower(power: PjlinkPower): void {
    setPjlinkPower(this.state, power);
  }

  /** `hours` of use: lamp and filter hours grow, warnings rise at the `ageing` thresholds. */
  advanceHours(hours: number): void {
    agePjlink(this.state, hours, this.ageing);
  }

  /** A new lamp (all lamps) and filter: counters back to 0, their warnings cleared. */
  replaceConsumables(): void {
    for (const lamp of this.state.lamps) lamp.hours = 0;
    if (this.state.filterHours !== null) this.state.filterHours = 0;
    this.state.errors.lamp = 'ok';
    this.state.errors.filter = 'ok';
  }

  /**
   * Until the returned function is called, connections open and are read but get no greeting
   * and no answer (then each gets what it was owed, in order): a test holds a probe in flight as
   * long as it needs to, with no clock involved.
   */
  holdAnswers(): () => void {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    this.held = held;
    return () => {
      if (this.held === held) this.held = undefined;
      release();
    };
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => {
      this.sockets.delete(socket);
      if (this.active === socket) this.active = undefined;
    });
    socket.on('error', () => undefined);
    this.connectionsAccepted += 1;
    this.mostAtOnce = Math.max(this.mostAtOnce, this.sockets.size);
    if (this.active) {
      this.busyRefusals += 1;
      socket.destroy();
      return;
    }
    this.active = socket;
    socket.setNoDelay(true);
    socket.setTimeout(IDLE_MS, () => socket.destroy());
    socket.setEncoding('utf8');
    const session: Session = {
      random: randomBytes(4).toString('hex'),
      password: this.password,
      authenticated: this.password === undefined,
    };
    const greeting = session.password === undefined ? 'PJLINK 0' : `PJLINK 1 ${session.random}`;
    const held = this.held ?? Promise.resolve();
    const greeted = held.then(() =>
      this.behaviour.silent || socket.destroyed ? undefined : this.send(socket, greeting),
    );
    this.readLines(socket, session, greeted);
  }

  /** Lines are answered in order, each after the one before it, as a device's single task does. */
  private readLines(socket: Socket, session: Session, greeted: Promise<void>): void {
    let pending = '';
    let answered = greeted;
    socket.on('data', (chunk: string) => {
      pending += chunk;
      for (let end = pending.indexOf('\r'); end >= 0; end = pending.indexOf('\r')) {
        const line = pending.slice(0, end).replace(/^\n/, '');
        pending = pending.slice(end + 1);
        answered = answered.then(() => this.handle(socket, session, line));
      }
      if (pending.length > LONGEST_LINE) socket.destroy();
    });
  }

  private async handle(socket: Socket, session: Session, line: string): Promise<void> {
    if (socket.destroyed || this.behaviour.silent) return;
    const command = this.authenticate(session, line);
    if (command === undefined) {
      await this.send(socket, 'PJLINK ERRA');
      socket.end();
      return;
    }
    const parts = commandLine.exec(command);
    // Not PJLink at all: devices ignore such lines rather than answer them.
    if (!parts) return;
    const [, digit, name, parameter] = parts;
    this.received.push(`%${digit}${name.toUpperCase()} ${parameter}`);
    if (this.received.length > RECEIVED_KEPT) this.received.shift();
    if (this.behaviour.answerDelayMs > 0) await delay(this.behaviour.answerDelayMs);
    if (socket.destroyed || this.behaviour.silent) return;
    const value = answerPjlink(this.state, this.deviceClass, digit, name.toUpperCase(), parameter);
    await this.send(socket, `%${digit}${name.toUpperCase()}=${value}`);
  }

  /** The command without its digest, or undefined when the password is wrong or missing. */
  private authenticate(session: Session, line: string): string | undefined {
    const digest = digestPrefix.exec(line)?.[0];
    if (session.password === undefined) return line;
    if (digest === undefined) return session.authenticated ? line : undefined;
    if (digest.toLowerCase() !== md5(session.random + session.password)) return undefined;
    session.authenticated = true;
    return line.slice(digest.length);
  }

  private async send(socket: Socket, text: string): Promise<void> {
    const data = `${text}\r`;
    if (!this.behaviour.splitPackets) {
      socket.write(data);
      return;
    }
    const cuts = [0, 1, Math.ceil(data.length / 2), data.length];
    for (let i = 0; i < 3; i += 1) {
      if (socket.destroyed) return;
      if (i > 0) await delay(SPLIT_GAP_MS);
      socket.write(data.slice(cuts[i], cuts[i + 1]));
    }
  }
}

/** Starts a simulated PJLink projector; see `PjlinkSimulator` for how it behaves. */
export function startPjlinkSimulator(options: PjlinkSimulatorOptions): Promise<PjlinkSimulator> {
  return PjlinkSimulator.start(options);
}

function md5(text: string): string {
  return createHash('md5').update(text).digest('hex');
}

/** Unreferenced: an answer still waiting must not keep a finished test run or demo alive. */
function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
