import { randomUUID } from 'node:crypto';
import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';
import { messages, type ProbeTarget } from '@cm/contracts';
import { eventually, sample } from '@cm/platform/testing';
import { type DeviceProbe, type ProbeRequest, type ProbeResult } from '../src/probes/probe';
import { ProbeRegistry } from '../src/probes/probe-registry';
import {
  dropNamespace,
  FakeInventory,
  HealthReadings,
  httpBase,
  joined,
  newNamespace,
  type Replica,
  startReplica,
} from './support';

/** A TCP listener on a loopback address that counts the connections it accepted and has open. */
class Listener {
  open = 0;
  accepted = 0;
  private readonly sockets = new Set<Socket>();

  private constructor(private readonly server: Server) {}

  static async start(host: string): Promise<Listener> {
    const server = createServer();
    const sut = new Listener(server);
    server.on('connection', (socket) => {
      sut.accepted++;
      sut.open++;
      sut.sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        sut.open--;
        sut.sockets.delete(socket);
      });
    });
    await new Promise<void>((resolve) => server.listen({ host, port: 0 }, resolve));
    return sut;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

/** A port nothing listens on: one a listener just had. */
async function closedPort(host: string): Promise<number> {
  const listener = await Listener.start(host);
  const { port } = listener;
  await listener.close();
  return port;
}

/**
 * A probe that keeps its connection for a while and pays no heed to being cancelled: the worst a
 * protocol client could do, for what the scheduler promises the devices whatever its probes do.
 */
class LingeringProbe implements DeviceProbe<'http'> {
  readonly type = 'http';
  /** Probes of one device under way at once, at most, from when each starts until it ends. */
  maxInFlight = 0;
  private inFlight = 0;

  async probe({ address, port, secrets }: ProbeRequest): Promise<ProbeResult> {
    this.maxInFlight = Math.max(this.maxInFlight, ++this.inFlight);
    try {
      return await new Promise((resolve) => {
        const socket = connect({ host: address, port });
        socket.on('error', () => resolve({ outcome: 'unreachable', findings: [] }));
        socket.on('connect', () => setTimeout(() => socket.end(), 1500));
        socket.on('close', () =>
          resolve({ outcome: 'answered', findings: [], deviceName: secrets.password }),
        );
      });
    } finally {
      this.inFlight--;
    }
  }
}

const probeTarget = (address: string, probe: ProbeTarget['probe'], secrets = {}): ProbeTarget => ({
  equipmentId: randomUUID(),
  address,
  probe,
  secrets,
});

/** One replica, real NATS and JetStream, real TCP to listeners on loopback addresses. */
describe('device probes', () => {
  const namespace = newNamespace();
  let inventory: FakeInventory;
  let readings: HealthReadings;
  let sut: Replica;
  const listeners: Listener[] = [];
  const lingering = new LingeringProbe();

  beforeAll(async () => {
    inventory = await FakeInventory.start(namespace);
    sut = await startReplica(namespace, { MONITOR_PROBE_TIMEOUT_MS: '3000' });
    // The lingering probe plugs in as any protocol client does, by its type.
    sut.app.get(ProbeRegistry).register(lingering);
    await joined(sut);
    readings = await HealthReadings.listen(namespace);
    await sut.rpc.send(messages.monitor.start);
  });

  afterAll(async () => {
    await sut?.close();
    await readings?.close();
    await inventory?.close();
    await Promise.all(listeners.map((l) => l.close()));
    await dropNamespace(namespace);
  });

  it('reads a device whose port accepts as answered, and one whose port refuses as unreachable', async () => {
    const listener = await Listener.start('127.0.0.61');
    listeners.push(listener);
    const refusing = await closedPort('127.0.0.62');
    const open = probeTarget('127.0.0.61', { type: 'tcp', port: listener.port, intervalSeconds: 10 });
    const closed = probeTarget('127.0.0.62', { type: 'tcp', port: refusing, intervalSeconds: 10 });

    await inventory.setProbe(open);
    await inventory.setProbe(closed);

    await eventually(() => {
      expect(readings.of(open.equipmentId)[0]).toMatchObject({ probeType: 'tcp', outcome: 'answered' });
      expect(readings.of(closed.equipmentId)[0]).toMatchObject({
        probeType: 'tcp',
        outcome: 'unreachable',
        detail: `Connection refused on port ${refusing}`,
      });
    }, 30_000);
    expect(listener.accepted).toBeGreaterThanOrEqual(1);
    // Each batch is stored under its batch id, which de-duplicates one sent twice.
    for (const batch of readings.batches) expect(batch.msgId).toBe(batch.batchId);
  });

  it('never opens a second connection to a device while its first probe is under way', async () => {
    const listener = await Listener.start('127.0.0.63');
    listeners.push(listener);
    const target = probeTarget(
      '127.0.0.63',
      {
        type: 'http',
        port: listener.port,
        intervalSeconds: 10,
        https: false,
        path: '/',
        certificateWarningDays: 21,
      },
      { password: 'first' },
    );
    await inventory.setProbe(target);
    await eventually(() => expect(listener.open).toBe(1), 30_000);

    // Changed while its probe lingers: probed again with the new settings, but only after it.
    await inventory.setProbe({ ...target, secrets: { password: 'second' } });

    await eventually(
      () => expect(readings.of(target.equipmentId).map((r) => r.deviceName)).toEqual(['second']),
      30_000,
    );
    expect(listener.accepted).toBe(2);
    expect(lingering.maxInFlight).toBe(1);
  });

  it('serves Prometheus metrics of its probes', async () => {
    const text = await (await fetch(`${httpBase(sut)}/metrics`)).text();

    expect(sample(text, 'cm_monitor_probes_total{type="tcp",outcome="answered"}')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'cm_monitor_probes_total{type="tcp",outcome="unreachable"}')).toBeGreaterThanOrEqual(
      1,
    );
    expect(sample(text, 'cm_monitor_probe_duration_seconds_count{type="tcp"}')).toBeGreaterThanOrEqual(2);
    expect(sample(text, 'cm_monitor_probe_targets{share="all"}')).toBe(3);
    // The only replica: every device is its own.
    expect(sample(text, 'cm_monitor_probe_targets{share="own"}')).toBe(3);
    // Probes go on every 10 s: compare at a moment when the stream and the counter agree.
    await eventually(async () => {
      const now = await (await fetch(`${httpBase(sut)}/metrics`)).text();
      expect(sample(now, 'cm_monitor_probe_readings_published_total')).toBe(readings.all.length);
    });
  });
});
