// What the bench reads while the system runs: every message of a stream with its sequence and the
// time the stream stored it (an ordered consumer of its own), a durable consumer's ack floor every
// few milliseconds (inventory acknowledges a batch after its commit), the monitor's /metrics, and
// a process's CPU and memory.
import { createRequire } from 'node:module';
import { setTimeout as sleep } from 'node:timers/promises';
import { cpuMs, memoryMiB, percentile, round } from '../support/measure.mjs';

const require = createRequire(import.meta.url);
const { DeliverPolicy, millis } = require('nats');

/**
 * Every message the stream stores from now on: `{ seq, storedAt, ...summarize(data) }`, storedAt
 * in epoch ms (the server's clock: this machine's).
 */
export async function followStream(js, stream, summarize) {
  const consumer = await js.consumers.get(stream, { deliver_policy: DeliverPolicy.New });
  const messages = await consumer.consume();
  const seen = [];
  const loop = (async () => {
    for await (const m of messages) {
      seen.push({ seq: m.seq, storedAt: millis(m.info.timestampNanos), ...summarize(m.json()) });
    }
  })();
  return {
    seen,
    stop: async () => {
      await messages.close().catch(() => undefined);
      await loop.catch(() => undefined);
    },
  };
}

/** A durable consumer's ack floor every `everyMs`, each reading with its epoch ms. */
export function pollAckFloor(jsm, stream, durable, everyMs = 50) {
  const samples = [];
  let polling = true;
  const loop = (async () => {
    while (polling) {
      try {
        const ci = await jsm.consumers.info(stream, durable);
        samples.push({
          at: Date.now(),
          floor: ci.ack_floor.stream_seq,
          backlog: ci.num_pending + ci.num_ack_pending,
          redelivered: ci.num_redelivered,
        });
      } catch {
        // The consumer is created with the first subscription; until then there is nothing to read.
      }
      await sleep(everyMs);
    }
  })();
  return {
    samples,
    stop: async () => {
      polling = false;
      await loop;
    },
  };
}

/** When each message was committed: the first reading whose ack floor reached it (undefined: not yet). */
export function commitTimes(messages, samples) {
  const sorted = [...messages].sort((a, b) => a.seq - b.seq);
  const at = new Map();
  let i = 0;
  for (const m of sorted) {
    while (i < samples.length && samples[i].floor < m.seq) i++;
    if (i < samples.length) at.set(m.seq, samples[i].at);
  }
  return at;
}

/** p50, p99 and max of a list of milliseconds, and how many. */
export function spread(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50: round(percentile(sorted, 50), 0),
    p99: round(percentile(sorted, 99), 0),
    max: round(sorted.at(-1), 0),
  };
}

/** The monitor's /metrics as `name{labels}` → value. */
export async function scrapeMetrics(port) {
  const res = await globalThis.fetch(`http://127.0.0.1:${port}/metrics`);
  const text = await res.text();
  const values = new Map();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const space = line.lastIndexOf(' ');
    values.set(line.slice(0, space), Number(line.slice(space + 1)));
  }
  return values;
}

/** The sum of every series of `name` whose labels contain each of `having`, later minus earlier. */
export function metricDelta(before, after, name, having = []) {
  let sum = 0;
  for (const [key, value] of after) {
    if (!(key === name || key.startsWith(`${name}{`)) || !having.every((h) => key.includes(h))) continue;
    sum += value - (before.get(key) ?? 0);
  }
  return sum;
}

/** A process's resident memory read every second: the most seen, and its CPU since `start`. */
export function watchProcess(pid) {
  const cpuAtStart = cpuMs(pid);
  let maxRss = memoryMiB(pid)?.rss ?? 0;
  const timer = setInterval(() => {
    maxRss = Math.max(maxRss, memoryMiB(pid)?.rss ?? 0);
  }, 1000);
  return {
    stop: () => {
      clearInterval(timer);
      const memory = memoryMiB(pid);
      return { cpuMs: cpuMs(pid) - cpuAtStart, maxRssMiB: Math.max(maxRss, memory?.rss ?? 0), memory };
    },
  };
}
