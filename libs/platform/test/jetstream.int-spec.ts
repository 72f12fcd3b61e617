import { randomUUID } from 'node:crypto';
import {
  events,
  namespacedName,
  namespacedSubject,
  type StatusEvent,
  type StatusMessage,
  streams,
} from '@cm/contracts';
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { JSONCodec, nanos, StorageType } from 'nats';
import { type DeliveryMeta, ensureStream, JetStreamConnection, platformMetrics } from '../src';
import { eventually, testNamespace, testNatsUrl } from '../src/testing';

/** A single status event's id (these tests publish single events, the pre-batch kind). */
const idOf = (e: StatusMessage) => ('eventId' in e ? e.eventId : e.sweepId);

const statusEvent = (over: Partial<StatusEvent> = {}): StatusEvent => ({
  eventId: randomUUID(),
  equipmentId: randomUUID(),
  sweepId: 'sweep-1',
  status: 'active',
  checkedAt: new Date().toISOString(),
  rttMs: 1.5,
  results: [{ address: '127.0.0.1', alive: true, rttMs: 1.5 }],
  ...over,
});

/** Waits for a condition that expect() cannot describe better than true or false. */
const until = (check: () => boolean | Promise<boolean>) =>
  eventually(async () => expect(await check()).toBe(true), 10_000, 25);

describe(JetStreamConnection.name, () => {
  const exporter = new InMemorySpanExporter();
  let namespace: string;
  let sut: JetStreamConnection;
  const connect = () =>
    JetStreamConnection.connect({ namespace, servers: testNatsUrl, name: 'js-test', timeoutMs: 5000 });

  beforeAll(() => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    trace.setGlobalTracerProvider(
      new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }),
    );
  });
  afterAll(() => {
    trace.disable();
    propagation.disable();
    context.disable();
  });

  beforeEach(async () => {
    namespace = testNamespace('js');
    sut = await connect();
  });
  afterEach(async () => {
    await sut.stopConsumers();
    await sut.jsm.streams.delete(namespacedName(namespace, streams.status.name)).catch(() => undefined);
    await sut.close();
  });

  describe(ensureStream.name, () => {
    it('creates a namespaced file stream with a de-duplication window of at least two minutes', async () => {
      const info = await ensureStream(sut.jsm, namespace, streams.status, { maxAgeMs: 3_600_000 });
      expect(info.config).toMatchObject({
        name: `${namespace}_STATUS`,
        subjects: [`${namespace}.monitor.status.checked`],
        storage: StorageType.File,
        max_age: nanos(3_600_000),
      });
      expect(info.config.duplicate_window).toBeGreaterThanOrEqual(nanos(120_000));
    });

    it('is safe from several processes at once, and applies changed limits', async () => {
      await Promise.all([1, 2, 3].map(() => ensureStream(sut.jsm, namespace, streams.status)));
      const info = await ensureStream(sut.jsm, namespace, streams.status, { maxAgeMs: 60 * 60_000 });
      expect(info.config.max_age).toBe(nanos(60 * 60_000));
    });

    it('refuses a de-duplication window shorter than two minutes', async () => {
      await expect(
        ensureStream(sut.jsm, namespace, streams.status, { duplicateWindowMs: 1000 }),
      ).rejects.toThrow('between 2 minutes');
    });
  });

  describe('publish', () => {
    it('stores an event once however often it is published with the same id', async () => {
      const event = statusEvent();
      const first = await sut.publish(events.statusChecked, event, { msgId: event.eventId });
      const again = await sut.publish(events.statusChecked, event, { msgId: event.eventId });
      expect(first.duplicate).toBe(false);
      expect(again.duplicate).toBe(true);
      const info = await sut.jsm.streams.info(namespacedName(namespace, streams.status.name));
      expect(info.state.messages).toBe(1);
    });

    it('refuses a payload its subject schema rejects, before anything is sent', async () => {
      const bad = { ...statusEvent(), status: 'online' } as unknown as StatusEvent;
      await expect(sut.publish(events.statusChecked, bad, { msgId: 'x' })).rejects.toThrow(
        /Status must be one of/,
      );
    });
  });

  describe('consume', () => {
    const durable = 'test-consumer';
    const publish = (event: StatusEvent) =>
      sut.publish(events.statusChecked, event, { msgId: event.eventId });
    const pendingOf = async () => {
      const info = await sut.jsm.consumers.info(namespacedName(namespace, streams.status.name), durable);
      return { pending: info.num_pending, unacked: info.num_ack_pending };
    };

    it('hands over events in order and acknowledges each after its handler resolves', async () => {
      const seen: string[] = [];
      await sut.consume({
        stream: streams.status,
        durable,
        subject: events.statusChecked,
        handle: async (e) => {
          seen.push(idOf(e));
        },
      });
      const sent = [statusEvent(), statusEvent(), statusEvent()];
      for (const e of sent) await publish(e);
      await eventually(() => expect(seen).toHaveLength(3), 10_000, 25);
      expect(seen).toEqual(sent.map((e) => idOf(e)));
      await eventually(async () => expect((await pendingOf()).unacked).toBe(0), 10_000, 25);
      expect(await pendingOf()).toEqual({ pending: 0, unacked: 0 });
    });

    it('delivers a failed event again, and gives up after the bounded number of deliveries', async () => {
      const deliveries: DeliveryMeta[] = [];
      const flaky = statusEvent();
      const poison = statusEvent();
      await sut.consume({
        stream: streams.status,
        durable,
        subject: events.statusChecked,
        maxDeliver: 3,
        retryDelayMs: () => 50,
        handle: async (e, meta) => {
          deliveries.push(meta);
          if (idOf(e) === poison.eventId) throw new Error('database down');
          if (idOf(e) === flaky.eventId && meta.deliveryCount === 1) throw new Error('deadlock');
        },
      });
      await publish(poison);
      await publish(flaky);
      await until(() => deliveries.filter((d) => d.msgId === flaky.eventId).length === 2);
      await until(() => deliveries.filter((d) => d.msgId === poison.eventId).length === 3);
      await new Promise((r) => setTimeout(r, 300));
      expect(deliveries.filter((d) => d.msgId === poison.eventId).map((d) => d.deliveryCount)).toEqual([
        1, 2, 3,
      ]);
      await eventually(async () => expect((await pendingOf()).unacked).toBe(0), 10_000, 25);
    });

    it('drops an event that fails its schema without calling the handler, and goes on', async () => {
      const handled: string[] = [];
      await sut.consume({
        stream: streams.status,
        durable,
        subject: events.statusChecked,
        handle: async (e) => {
          handled.push(idOf(e));
        },
      });
      await sut.js.publish(
        namespacedSubject(namespace, events.statusChecked),
        JSONCodec().encode({ eventId: 'x', status: 'online' }),
      );
      const good = statusEvent();
      await publish(good);
      await eventually(() => expect(handled).toHaveLength(1), 10_000, 25);
      expect(handled).toEqual([good.eventId]);
      await eventually(async () => expect((await pendingOf()).unacked).toBe(0), 10_000, 25);
    });

    it('continues the publisher trace in the handler', async () => {
      exporter.reset();
      let handlerTrace: string | undefined;
      await sut.consume({
        stream: streams.status,
        durable,
        subject: events.statusChecked,
        handle: async () => {
          handlerTrace = trace.getActiveSpan()?.spanContext().traceId;
        },
      });
      await publish(statusEvent());
      await until(() => handlerTrace !== undefined);
      const published = exporter
        .getFinishedSpans()
        .find((s) => s.name === `jetstream publish ${events.statusChecked}`);
      expect(handlerTrace).toBe(published!.spanContext().traceId);
    });

    it('exports the consumer lag it reads from the server: events waiting while the handler is busy, none once it is done', async () => {
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      let started = false;
      await sut.consume({
        stream: streams.status,
        durable,
        subject: events.statusChecked,
        batch: 1,
        handle: async () => {
          started = true;
          await gate;
        },
      });
      const lag = async () => {
        await sut.collectLag();
        const series = `consumer="${durable}",stream="${namespacedName(namespace, streams.status.name)}"`;
        const text = await platformMetrics.registry.metrics();
        const value = (name: string) =>
          Number(new RegExp(`^${name}\\{${series}\\} (\\S+)$`, 'm').exec(text)?.[1]);
        return {
          pending: value('cm_jetstream_consumer_pending'),
          unacked: value('cm_jetstream_consumer_ack_pending'),
        };
      };
      for (let i = 0; i < 5; i++) await publish(statusEvent());
      await until(() => started);

      // One pulled and held by the handler; the rest wait in the stream.
      expect((await lag()).pending).toBeGreaterThanOrEqual(3);
      release();
      await eventually(async () => expect(await lag()).toEqual({ pending: 0, unacked: 0 }), 10_000, 25);
    });

    it('exports the age of the oldest unacknowledged event, on the clock it is given, and 0 once all are acknowledged', async () => {
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      let started = false;
      await sut.consume({
        stream: streams.status,
        durable,
        subject: events.statusChecked,
        batch: 1,
        handle: async () => {
          started = true;
          await gate;
        },
      });
      // A clock an hour ahead stands for an hour's wait, without waiting it.
      const anHourOn = () => Date.now() + 3_600_000;
      const age = async (now: number) => {
        await sut.collectLag(now);
        const series = `consumer="${durable}",stream="${namespacedName(namespace, streams.status.name)}"`;
        const text = await platformMetrics.registry.metrics();
        return Number(
          new RegExp(`^cm_jetstream_consumer_oldest_unacked_age_seconds\\{${series}\\} (\\S+)$`, 'm').exec(
            text,
          )?.[1],
        );
      };
      const before = Date.now();
      for (let i = 0; i < 3; i++) await publish(statusEvent());
      await until(() => started);

      // The first is held by the handler, unacknowledged: its age is the hour plus the time since it was stored.
      let held: number;
      try {
        held = await age(anHourOn());
      } finally {
        release();
      }
      expect(held).toBeGreaterThanOrEqual(3600);
      expect(held).toBeLessThanOrEqual(3600 + (Date.now() - before) / 1000 + 1);
      await eventually(async () => expect(await age(anHourOn())).toBe(0), 10_000, 25);
    });

    it('on stop finishes the event in flight, and another consumer of the same durable gets all the rest', async () => {
      const handled: string[] = [];
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      let started = false;
      const first = await sut.consume({
        stream: streams.status,
        durable,
        subject: events.statusChecked,
        ackWaitMs: 2000,
        handle: async (e) => {
          started = true;
          await gate;
          handled.push(idOf(e));
        },
      });
      const sent = Array.from({ length: 5 }, () => statusEvent());
      for (const e of sent) await publish(e);
      await until(() => started);
      const stopping = first.stop();
      release();
      await stopping;
      expect(handled).toEqual([sent[0].eventId]);

      const other = await connect();
      try {
        await other.consume({
          stream: streams.status,
          durable,
          subject: events.statusChecked,
          ackWaitMs: 2000,
          handle: async (e) => {
            handled.push(idOf(e));
          },
        });
        // At least once: none is lost (those pulled ahead come back at once or after the ack wait);
        // the one finished during stop was acknowledged and does not come back.
        await until(() => sent.every((e) => handled.includes(idOf(e))));
        expect(handled.filter((id) => id === sent[0].eventId)).toHaveLength(1);
      } finally {
        await other.close();
      }
    });
  });
});
