import type { Socket } from 'node:net';
import { listenTcp, type TcpListener } from './tcp-listener';

export type QsysState = 'Idle' | 'Active' | 'Standby';

/** What the simulated core reports; every field may change while it runs (`update`). */
export interface QsysDevice {
  state: QsysState;
  /** QRC's `Status`: 0 OK, 1 Compromised, 2 Fault, 3 Not Present, 4 Missing, 5 Initializing. */
  status: { code: number; string: string };
  platform: string;
  designName: string;
  designCode: string;
  isRedundant: boolean;
  isEmulator: boolean;
}

/**
 * How answers leave: `separate` one write per message; `coalesced` the connect-time
 * `EngineStatus` and every answer to a packet in one write; `split` in pieces of a few bytes, so
 * messages and their NUL ends straddle packets.
 */
export type QrcDelivery = 'separate' | 'coalesced' | 'split';

export interface QsysSimulatorOptions extends Partial<QsysDevice> {
  host: string;
  port?: number;
  state: QsysState;
  status: { code: number; string: string };
  /** With a password (and user) set, commands other than `Logon` need a logon first. */
  user?: string;
  password?: string;
  delivery?: QrcDelivery;
}

export interface QsysSimulator extends TcpListener {
  readonly device: QsysDevice;
  update(patch: Partial<QsysDevice>): void;
}

/** QRC's error for a command that needs a logon first. */
const LOGON_REQUIRED = { code: 10, message: 'Logon required' };
const SPLIT_BYTES = 7;

interface QrcRequest {
  id?: unknown;
  method?: unknown;
  params?: { User?: unknown; Password?: unknown };
}

/** A Q-SYS core's QRC (JSON-RPC 2.0, NUL-terminated, TCP 1710 by default) on loopback. */
export async function startQsysSimulator(options: QsysSimulatorOptions): Promise<QsysSimulator> {
  const { host, port, user, password, delivery = 'separate', ...fields } = options;
  const device: QsysDevice = {
    platform: 'Core 110f',
    designName: 'Lecture-Hall',
    designCode: 'aB3dE5fG7hJ9',
    isRedundant: false,
    isEmulator: false,
    ...fields,
    status: { ...fields.status },
  };
  const listener = await listenTcp(host, port ?? 0, (socket) => {
    new QrcConversation(socket, device, { user, password }, delivery).greet();
  });
  return Object.assign(listener, {
    device,
    update: (patch: Partial<typeof device>) => void Object.assign(device, patch),
  });
}

class QrcConversation {
  private pending = '';
  private loggedOn: boolean;
  private held: string[] = [];
  /** Trickled writes one after another, so two answers never interleave their pieces. */
  private trickling = Promise.resolve();

  constructor(
    private readonly socket: Socket,
    private readonly device: QsysDevice,
    private readonly credentials: { user?: string; password?: string },
    private readonly delivery: QrcDelivery,
  ) {
    this.loggedOn = !credentials.password && !credentials.user;
    socket.on('data', (chunk: Buffer) => this.hear(chunk.toString('utf8')));
  }

  /** A core pushes its status to every client as it connects. */
  greet(): void {
    const notice = frame({ jsonrpc: '2.0', method: 'EngineStatus', params: this.status() });
    if (this.delivery === 'coalesced') this.held.push(notice);
    else this.send([notice]);
  }

  private hear(text: string): void {
    this.pending += text;
    const messages = this.pending.split('\0');
    this.pending = messages.pop() ?? '';
    const answers = messages.filter((m) => m.trim()).map((m) => frame(this.answer(m)));
    this.send([...this.held.splice(0), ...answers]);
  }

  private answer(text: string): object {
    let request: QrcRequest;
    try {
      request = JSON.parse(text) as QrcRequest;
    } catch {
      return { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, id: null };
    }
    const reply = (body: object) => ({ jsonrpc: '2.0', ...body, id: request.id ?? null });
    if (request.method === 'Logon') {
      const { User, Password } = request.params ?? {};
      this.loggedOn =
        (this.credentials.user ?? '') === (User ?? '') &&
        (this.credentials.password ?? '') === (Password ?? '');
      return this.loggedOn ? reply({ result: true }) : reply({ error: LOGON_REQUIRED });
    }
    if (!this.loggedOn) return reply({ error: LOGON_REQUIRED });
    if (request.method === 'StatusGet') return reply({ result: this.status() });
    if (request.method === 'NoOp') return reply({ result: true });
    return reply({ error: { code: -32601, message: 'Method not found' } });
  }

  private status(): object {
    const d = this.device;
    return {
      Platform: d.platform,
      State: d.state,
      DesignName: d.designName,
      DesignCode: d.designCode,
      IsRedundant: d.isRedundant,
      IsEmulator: d.isEmulator,
      Status: { Code: d.status.code, String: d.status.string },
    };
  }

  private send(frames: string[]): void {
    if (!frames.length || this.socket.destroyed) return;
    if (this.delivery === 'coalesced') return void this.socket.write(frames.join(''));
    if (this.delivery === 'separate') return frames.forEach((f) => this.socket.write(f));
    const bytes = Buffer.from(frames.join(''), 'utf8');
    this.trickling = this.trickling.then(() => this.trickle(bytes));
  }

  /** A few bytes per write, a timer apart, so each arrives in a packet of its own. */
  private async trickle(bytes: Buffer): Promise<void> {
    for (let at = 0; at < bytes.length && !this.socket.destroyed; at += SPLIT_BYTES) {
      this.socket.write(bytes.subarray(at, at + SPLIT_BYTES));
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
  }
}

function frame(message: object): string {
  return `${JSON.stringify(message)}\0`;
}
