// What a phase of bench/probes comes to, and the summary against issue 36's goals.
import { round } from '../support/measure.mjs';
import { commitTimes, metricDelta, spread } from './observe.mjs';

const GOALS = { pingLagP99Ms: 3000, probeCpuPercent: 20, healthLagMs: 5000 };

/** Each status message stored in the window → its commit; and per sweep, its last message's. */
function statusLag({ messages, acks }, from, to) {
  const committed = commitTimes(messages, acks.samples);
  const lags = [];
  const sweeps = new Map();
  for (const m of messages) {
    const last = sweeps.get(m.sweepId);
    if (!last || m.seq > last.seq) sweeps.set(m.sweepId, m);
    if (m.storedAt < from || m.storedAt >= to) continue;
    const at = committed.get(m.seq);
    lags.push(at === undefined ? Infinity : at - m.storedAt);
  }
  const sweepLags = [...sweeps.values()]
    .filter((m) => m.storedAt >= from && m.storedAt < to)
    .map((m) => (committed.get(m.seq) ?? Infinity) - m.storedAt);
  const checks = messages
    .filter((m) => m.storedAt >= from && m.storedAt < to)
    .reduce((sum, m) => sum + m.checks, 0);
  return {
    perMessage: spread(lags),
    perSweepLast: spread(sweepLags),
    sweepLastMs: sweepLags.map((v) => round(v, 0)),
    sweeps: sweepLags.length,
    checks,
    ...consumerIn(acks.samples, from, to),
    slowest: slowest(messages, committed, acks.samples, from, to),
  };
}

/** Inventory's consumer in the window: its largest backlog, and the longest gap between readings of it. */
function consumerIn(samples, from, to) {
  const inWindow = samples.filter((x) => x.at >= from && x.at < to);
  let gap = 0;
  for (let i = 1; i < inWindow.length; i++) gap = Math.max(gap, inWindow[i].at - inWindow[i - 1].at);
  return { backlogMax: Math.max(0, ...inWindow.map((x) => x.backlog)), ackReadingGapMaxMs: gap };
}

/** The five slowest status messages: their lag, how far into their sweep, the backlog when stored. */
function slowest(messages, committed, samples, from, to) {
  const firstOfSweep = new Map();
  for (const m of messages) if (!firstOfSweep.has(m.sweepId)) firstOfSweep.set(m.sweepId, m.storedAt);
  return messages
    .filter((m) => m.storedAt >= from && m.storedAt < to)
    .map((m) => ({ m, lag: (committed.get(m.seq) ?? Infinity) - m.storedAt }))
    .sort((a, b) => b.lag - a.lag)
    .slice(0, 5)
    .map(({ m, lag }) => ({
      lagMs: round(lag, 0),
      intoSweepMs: m.storedAt - firstOfSweep.get(m.sweepId),
      backlogWhenStored: samples.findLast((x) => x.at <= m.storedAt)?.backlog ?? null,
    }));
}

/** Each reading whose probe answered in the window → its batch's commit. */
function healthLag({ messages, acks }, from, to) {
  const committed = commitTimes(messages, acks.samples);
  const lags = [];
  const toStream = [];
  const devices = new Set();
  const outcomes = {};
  for (const m of messages) {
    const at = committed.get(m.seq);
    for (const [id, checkedAt, outcome, type] of m.readings) {
      if (checkedAt < from || checkedAt >= to) continue;
      lags.push(at === undefined ? Infinity : at - checkedAt);
      toStream.push(m.storedAt - checkedAt);
      devices.add(id);
      outcomes[`${type} ${outcome}`] = (outcomes[`${type} ${outcome}`] ?? 0) + 1;
    }
  }
  return {
    readings: lags.length,
    devices: devices.size,
    outcomes,
    answerToCommit: spread(lags),
    answerToStream: spread(toStream),
    batches: messages.filter((m) => m.storedAt >= from && m.storedAt < to).length,
  };
}

/** Probe counters of the monitor's /metrics over the window. */
function probeMetrics(before, after) {
  const d = (name, having) => metricDelta(before, after, name, having);
  const started = d('cm_monitor_probe_start_delay_seconds_count');
  const histogramMean = (name, having = []) =>
    round((d(`${name}_sum`, having) / Math.max(1, d(`${name}_count`, having))) * 1000, 1);
  return {
    probes: d('cm_monitor_probes_total'),
    answered: d('cm_monitor_probes_total', ['outcome="answered"']),
    startDelayMeanMs: histogramMean('cm_monitor_probe_start_delay_seconds'),
    startedWithin100ms: round(
      d('cm_monitor_probe_start_delay_seconds_bucket', ['le="0.1"']) / Math.max(1, started),
      3,
    ),
    pjlinkMeanMs: histogramMean('cm_monitor_probe_duration_seconds', ['type="pjlink"']),
    snmpMeanMs: histogramMean('cm_monitor_probe_duration_seconds', ['type="snmp"']),
    readingsPublished: d('cm_monitor_probe_readings_published_total'),
    readingsDropped: d('cm_monitor_probe_readings_dropped_total'),
  };
}

export function summarizePhase(p) {
  const seconds = (p.to - p.from) / 1000;
  const status = statusLag(p.status, p.from, p.to);
  const health = healthLag(p.health, p.from, p.to);
  const phase = {
    label: p.label,
    seconds: round(seconds, 1),
    load: p.load,
    monitorCpuPercent: round(p.monitor.cpuMs / seconds / 10, 1),
    monitorMaxRssMiB: p.monitor.maxRssMiB,
    monitorPeakMiB: p.monitor.memory?.peak ?? null,
    inventoryCpuPercent: round(p.inventoryCpuMs / seconds / 10, 1),
    status,
    health,
    metrics: probeMetrics(p.metricsBefore, p.metricsAfter),
  };
  return phase;
}

/** One log line of a phase. */
export function briefOf(phase) {
  const { status, health } = phase;
  return (
    `monitor CPU ${phase.monitorCpuPercent} % of a core, RSS max ${phase.monitorMaxRssMiB} MiB (peak ${phase.monitorPeakMiB}); ` +
    `status msg → commit p50/p99/max ${status.perMessage.p50}/${status.perMessage.p99}/${status.perMessage.max} ms over ${status.sweeps} sweeps; ` +
    `${health.readings} readings of ${health.devices} devices, answer → commit p50/p99/max ${health.answerToCommit.p50}/${health.answerToCommit.p99}/${health.answerToCommit.max} ms; ` +
    `load ${phase.load?.join(' ')}`
  );
}

const verdict = (ok) => (ok ? 'met' : 'MISSED');

export function printSummary(r) {
  const ref = r.reference;
  const pro = r.probes;
  if (ref && pro) {
    const probeCpu = round(pro.monitorCpuPercent - ref.monitorCpuPercent, 1);
    const peak = Math.max(ref.monitorPeakMiB ?? 0, pro.monitorPeakMiB ?? 0);
    r.goals = {
      pingLagP99Ms: { measured: pro.status.perMessage.p99, goal: GOALS.pingLagP99Ms },
      probeCpuPercent: { measured: probeCpu, goal: GOALS.probeCpuPercent },
      monitorPeakMiB: { measured: peak, goal: r.chartLimitMiB },
      healthLagP99Ms: { measured: pro.health.answerToCommit.p99, goal: GOALS.healthLagMs },
      healthLagMaxMs: { measured: pro.health.answerToCommit.max, goal: GOALS.healthLagMs },
    };
    console.log(
      `\n${r.pingDevices} devices pinged every 30 s, ${r.probeDevicesEach} PJLink + ${r.probeDevicesEach} SNMP probed every ${r.intervalS} s; ` +
        `${r.phaseS} s per phase after ${r.warmupS} s of warm-up; monitor NODE_OPTIONS ${r.monitorNodeOptions ?? '(none)'}`,
    );
    console.log(
      '| phase | load (1/5/15 min) | monitor CPU % of a core | RSS max / peak MiB | status msgs → commit p50 / p99 / max ms | sweeps: last msg → commit p50 / max ms | readings (devices) | answer → commit p50 / p99 / max ms | inventory CPU % |',
    );
    console.log('|---|---|---|---|---|---|---|---|---|');
    for (const x of [ref, pro]) {
      const s = x.status;
      const h = x.health;
      console.log(
        `| ${x.label} | ${x.load?.join(' / ')} | ${x.monitorCpuPercent} | ${x.monitorMaxRssMiB} / ${x.monitorPeakMiB} | ${s.perMessage.p50} / ${s.perMessage.p99} / ${s.perMessage.max} (${s.perMessage.n}) | ` +
          `${s.perSweepLast.p50} / ${s.perSweepLast.max} (${s.sweeps}) | ${h.readings} (${h.devices}) | ${h.answerToCommit.p50} / ${h.answerToCommit.p99} / ${h.answerToCommit.max} | ${x.inventoryCpuPercent} |`,
      );
    }
    for (const [name, g] of Object.entries(r.goals))
      console.log(
        `${name}: ${g.measured} (goal ${g.goal}) ${verdict(g.measured !== null && g.measured <= g.goal)}`,
      );
  }
  console.log(JSON.stringify(r));
}
