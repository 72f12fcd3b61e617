import {
  events,
  kvBuckets,
  namespacedName,
  namespacedSubject,
  messages,
  probeBatchSchema,
  type ProbeBatch,
  roomCheckedEventSchema,
  type RoomCheckedEvent,
  type ProbeReading,
  statusBatchSchema,
  type StatusEvent,
  streams,
  type SweepReport,
} from '@cm/contracts';
import { deleteNamespaceStreams } from '@cm/platform';
import { testNatsUrl } from '@cm/platform/testing';
import { type ConsumerMessages, connect, JSONCodec, type NatsConnection } from 'nats';

const json = JSONCodec<unknown>();

/**
 * Every check the replicas publish, each batch unpacked into one event per equipment with the
 * event id inventory gives it, so a test can count them per sweep. A plain subscription sees each
 * publish, also a batch sent again under its message id (the client does when JetStream does not
 * answer at once), which the stream drops as a duplicate: such a batch counts once, as inventory
 * sees it; two batches that both carry an equipment count twice. Also each replica's report of
 * the share it pinged (`reports`), which says whether the share was cut short.
 */
export class StatusEvents {
  readonly all: StatusEvent[] = [];
  readonly reports: SweepReport[] = [];
  private readonly batches = new Set<string>();

  private constructor(private readonly nc: NatsConnection) {}

  static async listen(namespace: string): Promise<StatusEvents> {
    const nc = await connect({ servers: testNatsUrl, name: 'status-listener' });
    const sut = new StatusEvents(nc);
    nc.subscribe(namespacedSubject(namespace, events.statusChecked), {
      callback: (_error, msg) => {
        const batchId = msg.headers?.get('Nats-Msg-Id');
        if (batchId) {
          if (sut.batches.has(batchId)) return;
          sut.batches.add(batchId);
        }
        const { sweepId, checks } = statusBatchSchema.parse(json.decode(msg.data));
        for (const check of checks)
          sut.all.push({ eventId: `${check.equipmentId}:${sweepId}`, sweepId, ...check });
      },
    });
    nc.subscribe(namespacedSubject(namespace, messages.monitor.sweepDone.subject), {
      callback: (_error, msg) => {
        const report = messages.monitor.sweepDone.payload.safeParse(json.decode(msg.data));
        if (report.success) sut.reports.push(report.data);
      },
    });
    await nc.flush();
    return sut;
  }

  /** Sweep ids in the order their first event arrived. */
  sweeps(): string[] {
    return [...new Set(this.all.map((e) => e.sweepId))];
  }

  of(sweepId: string): StatusEvent[] {
    return this.all.filter((e) => e.sweepId === sweepId);
  }

  /** How many events each equipment got in one sweep. */
  countsIn(sweepId: string): Map<string, number> {
    const counts = new Map<string, number>();
    for (const e of this.of(sweepId)) counts.set(e.equipmentId, (counts.get(e.equipmentId) ?? 0) + 1);
    return counts;
  }

  latestFor(equipmentId: string): StatusEvent | undefined {
    return this.all.filter((e) => e.equipmentId === equipmentId).at(-1);
  }

  async close(): Promise<void> {
    await this.nc.drain();
  }
}

/** The probe readings stored in the HEALTH stream, in stream order, read by an ordered consumer. */
export class HealthReadings {
  readonly batches: (ProbeBatch & { msgId: string | undefined })[] = [];

  private constructor(
    private readonly nc: NatsConnection,
    private readonly messages: ConsumerMessages,
  ) {}

  static async listen(namespace: string): Promise<HealthReadings> {
    const nc = await connect({ servers: testNatsUrl, name: 'health-listener' });
    const consumer = await nc.jetstream().consumers.get(namespacedName(namespace, streams.health.name));
    const sut = new HealthReadings(nc, await consumer.consume());
    void (async () => {
      for await (const msg of sut.messages) {
        const batch = probeBatchSchema.parse(json.decode(msg.data));
        sut.batches.push({ ...batch, msgId: msg.headers?.get('Nats-Msg-Id') });
      }
    })();
    return sut;
  }

  get all(): ProbeReading[] {
    return this.batches.flatMap((b) => b.readings);
  }

  of(equipmentId: string): ProbeReading[] {
    return this.all.filter((r) => r.equipmentId === equipmentId);
  }

  async close(): Promise<void> {
    this.messages.stop();
    await this.nc.drain();
  }
}

/** Every `room.checked` live event: the results of room checks that came after their answers. */
export class RoomCheckedEvents {
  readonly all: RoomCheckedEvent[] = [];

  private constructor(
    private readonly nc: NatsConnection,
    private readonly messages: ConsumerMessages,
  ) {}

  static async listen(namespace: string): Promise<RoomCheckedEvents> {
    const nc = await connect({ servers: testNatsUrl, name: 'room-checked-listener' });
    const consumer = await nc.jetstream().consumers.get(namespacedName(namespace, streams.live.name));
    const sut = new RoomCheckedEvents(nc, await consumer.consume());
    const subject = namespacedSubject(namespace, events.liveRoomChecked);
    void (async () => {
      for await (const msg of sut.messages)
        if (msg.subject === subject) sut.all.push(roomCheckedEventSchema.parse(json.decode(msg.data)));
    })();
    return sut;
  }

  /** The equipment's results that came late in the check `checkId`. */
  of(checkId: string, equipmentId: string) {
    return this.all
      .filter((e) => e.checkId === checkId)
      .flatMap((e) => e.equipment)
      .filter((e) => e.equipmentId === equipmentId);
  }

  async close(): Promise<void> {
    this.messages.stop();
    await this.nc.drain();
  }
}

/** Removes what a test namespace left on NATS: its streams and the monitor's KV buckets. */
export async function dropNamespace(namespace: string): Promise<void> {
  await deleteNamespaceStreams(namespace, testNatsUrl);
  const nc = await connect({ servers: testNatsUrl, name: 'cleanup' });
  try {
    const jsm = await nc.jetstreamManager();
    for (const bucket of Object.values(kvBuckets)) {
      await jsm.streams.delete(`KV_${namespacedName(namespace, bucket)}`).catch(() => undefined);
    }
  } finally {
    await nc.close();
  }
}
