import {
  type ErrorBody,
  events,
  type EquipmentChangedEvent,
  messages,
  namespacedName,
  namespacedSubject,
  streams,
} from '@cm/contracts';
import {
  deleteNamespaceStreams,
  ensureStream,
  JetStreamConnection,
  MetricsService,
  openServiceDatabase,
  parseEnv,
  type RpcClient,
} from '@cm/platform';
import {
  dropNamespaceSchemas,
  startTestService,
  testNamespace,
  testEnv,
  testNatsUrl,
  type TestService,
} from '@cm/platform/testing';
import { AckPolicy, connect, DeliverPolicy, JSONCodec, type NatsConnection } from 'nats';
import { DataSource } from 'typeorm';
import { AppModule } from '../src/app.module';
import { type Config, configSchema } from '../src/config';

export type Inventory = TestService<Config>;

/**
 * Boots inventory against the real PostgreSQL and NATS in the given namespace; starting it again
 * with the same namespace is a restart of the same stack. `dropNamespace` removes it all.
 */
export function startInventory(namespace: string, env: Record<string, string> = {}): Promise<Inventory> {
  return startTestService({
    service: 'inventory',
    schema: configSchema,
    module: AppModule.forRoot,
    namespace,
    env: { INVENTORY_OUTBOX_INTERVAL_MS: '200', ...env },
  });
}

export const newNamespace = () => testNamespace('inv');

/**
 * Inventory upgraded from an older version: the schema as `migrations` left it, filled by `seed`
 * (SQL against it, its qualified name in `s`), then the current service started on it, which runs
 * the migrations that came since.
 */
export async function startUpgraded(
  namespace: string,
  migrations: (new () => unknown)[],
  seed: (old: DataSource, s: string) => Promise<void>,
): Promise<Inventory> {
  const old = await openServiceDatabase(parseEnv(configSchema, testEnv(namespace)), {
    service: 'inventory',
    entities: [],
    migrations,
  });
  try {
    await seed(old, `"${namespace}_inventory"`);
  } finally {
    await old.destroy();
  }
  return startInventory(namespace);
}

/** Removes a test namespace's schemas and streams. */
export async function dropNamespace(namespace: string): Promise<void> {
  await dropNamespaceSchemas(namespace);
  await deleteNamespaceStreams(namespace, testNatsUrl);
}

/** SQL straight against the service's schema, to look at what the API does not show. */
export function sql<T = Record<string, unknown>>(inventory: Inventory, text: string, params: unknown[] = []) {
  const dataSource = inventory.app.get(DataSource);
  const schema = `"${inventory.namespace}_inventory"`;
  return dataSource.query(text.replace(/\binv\./g, `${schema}.`), params) as Promise<T[]>;
}

/**
 * Replaces an equipment's status history with checks at the given times (oldest first): each
 * status holds until the next, stored as the service stores it, as spans of one status.
 */
export async function setHistory(inventory: Inventory, equipmentId: string, checks: [string, Date][]) {
  await sql(inventory, 'DELETE FROM inv.status_spans WHERE equipment_id = $1', [equipmentId]);
  const runs = checks.filter(([status], i) => i === 0 || checks[i - 1][0] !== status);
  for (const [i, [status, at]] of runs.entries()) {
    await sql(
      inventory,
      'INSERT INTO inv.status_spans (equipment_id, started_at, ended_at, status) VALUES ($1, $2, $3, $4)',
      [equipmentId, at, runs[i + 1]?.[1] ?? null, status],
    );
  }
  const [status, at] = runs.at(-1)!;
  await sql(
    inventory,
    `UPDATE inv.equipment_state SET span_started_at = $2, span_status = $3, recent = ARRAY[(extract(epoch FROM $4::timestamptz) * 1000)::bigint]
      WHERE equipment_id = $1`,
    [equipmentId, at, status, checks.at(-1)![1]],
  );
}

/**
 * A sample's value in what the replica's /metrics would answer now (its collectors run first);
 * `labels` as they appear between the braces, e.g. `channel_type="webhook"`. NaN when absent.
 */
export async function metricValue(inventory: Inventory, name: string, labels = ''): Promise<number> {
  const text = await inventory.app.get(MetricsService).render();
  const series = labels ? `\\{${labels}\\}` : '';
  return Number(new RegExp(`^${name}${series} (\\S+)$`, 'm').exec(text)?.[1]);
}

/** The error body a call fails with (the test fails if it succeeds). */
export async function failureOf(
  call: Promise<unknown>,
): Promise<ErrorBody & { errors?: ErrorBody['errors'] }> {
  try {
    await call;
  } catch (error) {
    return error as ErrorBody;
  }
  throw new Error('expected the call to fail');
}

/** Creates records through the service's own patterns; `inventory` is read at each call. */
export const fixtures = (inventory: () => Inventory) => ({
  building: (over: object = {}) =>
    inventory().rpc.send(messages.inventory.createBuilding, { name: 'Science Hall', ...over }),
  room: (buildingId: string, over: object = {}) =>
    inventory().rpc.send(messages.inventory.createRoom, {
      buildingId,
      room: { name: '101', type: 'Classroom', floor: '1', ...over },
    }),
  equipment: (roomId: string, over: object = {}) =>
    inventory().rpc.send(messages.inventory.createEquipment, {
      roomId,
      equipment: { name: 'Projector', ...over },
    }),
});

/** Reads the equipment change events of a namespace from the stream, as the monitor would. */
export async function equipmentChangeReader(namespace: string) {
  const nc: NatsConnection = await connect({ servers: testNatsUrl });
  const jsm = await nc.jetstreamManager();
  await ensureStream(jsm, namespace, streams.equipment);
  const stream = namespacedName(namespace, streams.equipment.name);
  const durable = `test-reader-${Date.now()}`;
  await jsm.consumers.add(stream, {
    durable_name: durable,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    filter_subject: namespacedSubject(namespace, events.equipmentChanged),
  });
  const consumer = await nc.jetstream().consumers.get(stream, durable);
  const codec = JSONCodec<EquipmentChangedEvent>();
  return {
    /**
     * Waits for `count` more events, in stream order. Pulls in batches: one pull per event made a
     * reader on a busy machine too slow to read 1,600 stored events within its time, which looked
     * exactly like events the relay had lost.
     */
    async next(count: number, timeoutMs = 10_000): Promise<EquipmentChangedEvent[]> {
      const out: EquipmentChangedEvent[] = [];
      const deadline = Date.now() + timeoutMs;
      while (out.length < count && Date.now() < deadline) {
        const batch = await consumer.fetch({
          max_messages: Math.min(count - out.length, 500),
          expires: 1000, // the least the client accepts
        });
        for await (const msg of batch) {
          out.push(codec.decode(msg.data));
          msg.ack();
        }
      }
      return out;
    },
    close: () => nc.close(),
  };
}

/**
 * One inventory for a test file: started before its tests in a namespace of its own, removed
 * with its schemas and streams after them. Read the fields inside tests, not at load time.
 */
export interface InventoryUnderTest {
  namespace: string;
  sut: Inventory;
  make: ReturnType<typeof fixtures>;
  send: RpcClient['send'];
}

export function inventoryUnderTest(env: Record<string, string> = {}): InventoryUnderTest {
  const ctx: InventoryUnderTest = {
    namespace: newNamespace(),
    sut: undefined as unknown as Inventory,
    make: fixtures(() => ctx.sut),
    send: (message, ...args) => ctx.sut.rpc.send(message, ...args),
  };
  beforeAll(async () => {
    ctx.sut = await startInventory(ctx.namespace, env);
  });
  afterAll(async () => {
    await ctx.sut?.close();
    await dropNamespace(ctx.namespace);
  });
  return ctx;
}

/** The monitor's side: publishes status messages into the namespace's stream. */
export const monitorOf = (namespace: string) =>
  JetStreamConnection.connect({ namespace, servers: testNatsUrl, name: 'monitor-test', timeoutMs: 5000 });
