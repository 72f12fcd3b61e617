import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import { messages } from '@cm/contracts';
import { eventually } from '@cm/platform/testing';
import { SMTPServer } from 'smtp-server';
import { type Inventory, type InventoryUnderTest, sql } from './support';

export interface Received {
  deliveryId: string;
  body: Record<string, unknown>;
  signatureValid: boolean;
  at: number;
}

/**
 * A webhook receiver as its documentation tells one to be written: it checks the signature over
 * `<t>.<body>` with the channel's secret, and refuses a time more than five minutes off.
 */
export async function startReceiver(secretOf: () => string | undefined, port = 0, host = '127.0.0.1') {
  const received: Received[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const header = String(req.headers['x-cm-signature'] ?? '');
      const t = /(?:^|,)t=(\d+)/.exec(header)?.[1];
      const v1 = /(?:^|,)v1=([0-9a-f]{64})/.exec(header)?.[1];
      const secret = secretOf();
      let signatureValid = false;
      if (t && v1 && secret && Math.abs(Date.now() / 1000 - Number(t)) < 300) {
        const expected = createHmac('sha256', secret).update(`${t}.${raw}`).digest();
        signatureValid = timingSafeEqual(expected, Buffer.from(v1, 'hex'));
      }
      received.push({
        deliveryId: String(req.headers['x-cm-delivery']),
        body: JSON.parse(raw) as Record<string, unknown>,
        signatureValid,
        at: Date.now(),
      });
      res.writeHead(signatureValid ? 204 : 401).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  return {
    received,
    url: `http://${host}:${(server.address() as AddressInfo).port}/hooks/av`,
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A webhook channel, "AV team", for a building's alerts, and the receiver behind it checking its signatures. */
export async function webhookChannel({ send }: Pick<InventoryUnderTest, 'send'>, buildingId: string) {
  const signing: { secret?: string } = {};
  const receiver = await startReceiver(() => signing.secret);
  const channel = await send(messages.inventory.createChannel, {
    name: 'AV team',
    type: 'webhook',
    url: receiver.url,
    buildingIds: [buildingId],
  });
  signing.secret = channel.secret!;
  return { receiver, channel };
}

export async function startSmtp() {
  const mails: { to: string[]; data: string }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        mails.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          data: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { mails, port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/**
 * Inventory's settings for tests of channels: a webhook key, the receivers' loopback address let
 * through (127.0.0.1 alone: other loopback addresses stay refused), quick relay rounds and
 * retries, plain SMTP. The send timeout is only a guard against a hang here: a send that runs out
 * of time after the receiver has the message is sent again (at least once, by design), and on a
 * loaded machine a short timeout would turn the tests' "received once" into a race with the load.
 */
export const channelsTestEnv = (): Record<string, string> => ({
  ALERTS_SECRET_KEY: randomBytes(32).toString('base64'),
  ALERTS_ALLOWED_TARGETS: '127.0.0.1',
  ALERTS_RELAY_INTERVAL_MS: '100',
  ALERTS_RETRY_BASE_MS: '200',
  ALERTS_RETRY_MAX_MS: '1000',
  ALERTS_SEND_TIMEOUT_MS: '30000',
  SMTP_SECURE: 'none',
  SMTP_FROM: 'Classroom Monitor <av-alerts@example.edu>',
});

/**
 * A real SMTP server for a test file, started before inventory (declare it first): it sets
 * SMTP_HOST and SMTP_PORT in `env`. Read `mails` inside tests.
 */
export function smtpForTests(env: Record<string, string>) {
  let smtp: Awaited<ReturnType<typeof startSmtp>> | undefined;
  beforeAll(async () => {
    smtp = await startSmtp();
    env.SMTP_HOST = '127.0.0.1';
    env.SMTP_PORT = String(smtp.port);
  });
  afterAll(() => smtp?.close());
  return {
    get mails() {
      return smtp!.mails;
    },
  };
}

/** Waits until a message of `kind` waits to be sent to `channelId` (its group window, a held clock). */
export function pendingDelivery(inventory: Inventory, channelId: string, kind: string) {
  return eventually(async () =>
    expect(
      await sql(inventory, `SELECT kind FROM inv.deliveries WHERE channel_id = $1 AND state = 'pending'`, [
        channelId,
      ]),
    ).toContainEqual({ kind }),
  );
}

/** A delivery's row as the relay left it: state, attempts, last error, when it is next due. */
export async function deliveryRow(inventory: Inventory, id: string) {
  const [row] = await sql<{ state: string; attempts: number; last_error: string | null; next: Date | null }>(
    inventory,
    'SELECT state, attempts, last_error, next_attempt_at AS next FROM inv.deliveries WHERE id = $1',
    [id],
  );
  return row;
}
