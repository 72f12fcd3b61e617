import type { Socket } from 'node:net';
import { listenTcp, type TcpListener } from './tcp-listener';

/** What the simulated Extron device says about itself; may change while it runs (`update`). */
export interface ExtronDevice {
  model: string;
  /** As `Q` answers it, e.g. `1.05`; the banner shows it as `V1.05`. */
  firmware: string;
  /** As `N` answers it, e.g. `60-1495-01`. */
  partNumber: string;
  /** With a password, the device asks for it after the banner. */
  password?: string;
}

export interface ExtronSimulatorOptions extends ExtronDevice {
  host: string;
  port?: number;
}

export interface ExtronSimulator extends TcpListener {
  readonly device: ExtronDevice;
  update(patch: Partial<ExtronDevice>): void;
}

/** Extron devices hang up after a few wrong passwords. */
const PASSWORD_ATTEMPTS = 3;

/**
 * An Extron device's SIS over telnet on loopback: the copyright banner and date, an optional
 * `Password:` prompt, then one-letter queries (`Q` firmware, `N` part number, `I` information),
 * `E10` for anything else.
 */
export async function startExtronSimulator(options: ExtronSimulatorOptions): Promise<ExtronSimulator> {
  const { host, port, ...rest } = options;
  const device: ExtronDevice = { ...rest };
  const listener = await listenTcp(host, port ?? 0, (socket) => converse(socket, device));
  return Object.assign(listener, {
    device,
    update: (patch: Partial<typeof device>) => void Object.assign(device, patch),
  });
}

export function extronBanner(device: ExtronDevice, now = new Date()): string {
  const date = now.toUTCString().replace(/ GMT$/, '');
  return (
    `(c) Copyright ${now.getUTCFullYear()}, Extron Electronics, ${device.model}, ` +
    `V${device.firmware}, ${device.partNumber}\r\n${date}\r\n`
  );
}

function converse(socket: Socket, device: ExtronDevice): void {
  let loggedIn = !device.password;
  let typed = '';
  let attempts = 0;
  socket.write(extronBanner(device) + (loggedIn ? '' : '\r\nPassword:'));

  socket.on('data', (chunk: Buffer) => {
    for (const char of chunk.toString('latin1')) {
      if (loggedIn) {
        const answer = query(char, device);
        if (answer) socket.write(answer);
        continue;
      }
      if (char !== '\r' && char !== '\n') {
        typed += char;
        continue;
      }
      if (!typed) continue;
      loggedIn = typed === device.password;
      typed = '';
      if (loggedIn) socket.write('\r\nLogin Administrator\r\n');
      else if (++attempts >= PASSWORD_ATTEMPTS) socket.end('\r\n');
      else socket.write('\r\nPassword:');
    }
  });
}

function query(char: string, device: ExtronDevice): string | undefined {
  switch (char.toUpperCase()) {
    case '\r':
    case '\n':
    case ' ':
      return undefined;
    case 'Q':
      return `${device.firmware}\r\n`;
    case 'N':
      return `${device.partNumber}\r\n`;
    case 'I':
      return `${device.model} V${device.firmware}\r\n`;
    default:
      return 'E10\r\n';
  }
}
